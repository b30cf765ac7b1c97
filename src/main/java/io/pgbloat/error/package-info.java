/**
 * The tool's typed failures, under one base {@link io.pgbloat.error.PgBloatException}: the data
 * directory's (not one, damaged, of a kind not read), its store's (unreachable, refusing). Every
 * layer may use this package; it uses none.
 */
package io.pgbloat.error;
