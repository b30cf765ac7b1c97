/**
 * What to do about each relation: the actions (none, VACUUM, a rewrite, a REINDEX, a larger
 * sample), the thresholds a DBA sets, the advice a row carries, and
 * {@link io.pgbloat.advice.ActionAdvisor}, which decides it from a relation's figures; sizes
 * written for people ({@link io.pgbloat.advice.ByteSize}). Uses {@code figures} and
 * {@code stats}; the report renders the advice.
 */
package io.pgbloat.advice;
