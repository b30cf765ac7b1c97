/**
 * The tool's typed failures, under one base {@link io.pgbloat.error.PgBloatException}. Every
 * layer may use this package; it uses none.
 */
package io.pgbloat.error;
