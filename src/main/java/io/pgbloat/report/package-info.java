/**
 * Output formats of the report: CSV, JSON and an aligned terminal table. Uses {@code stats}
 * and {@code catalog} records; knows nothing of pages, files or Spark.
 */
package io.pgbloat.report;
