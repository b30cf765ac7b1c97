/**
 * Output formats of the report: CSV, JSON, an aligned terminal table and a self-contained
 * HTML page with inline SVG charts. Uses {@code stats} and {@code catalog} records; knows
 * nothing of pages, files or Spark. Every name from the data directory is shown escaped:
 * names may hold any character but NUL.
 */
package io.pgbloat.report;
