/**
 * What to do about each relation: the actions (none, VACUUM, a rewrite, a larger sample), the
 * thresholds a DBA sets, and the advice a row carries. Plain data; {@code stats/ActionAdvisor}
 * decides it from the figures, the report renders it.
 */
package io.pgbloat.advice;
