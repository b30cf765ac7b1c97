/**
 * Output formats of the report: CSV, JSON, an aligned terminal table, a self-contained HTML
 * page with inline SVG charts, and Prometheus' text format. The relation report, the index
 * report and the totals are each a list of {@link io.pgbloat.report.Column}s
 * ({@code RelationColumns}, {@code IndexColumns}, {@code TotalColumns}), an estimated figure
 * written as its value, standard error and interval ({@code Figure}); one CSV and one JSON
 * writer serve all three. Uses {@code stats} and {@code catalog} records; knows nothing of
 * pages, files or Spark. Every name from the data directory is shown escaped: names may hold
 * any character but NUL.
 */
package io.pgbloat.report;
