/**
 * The reports as Spark DataFrames and Parquet: the report's, the index report's and the totals'
 * columns ({@code report}'s Column definitions) as typed Spark schemas and rows, written as one
 * Parquet directory or appended to a dataset of runs. The one place where report rows meet
 * Spark types; the data source and the CLI use it, the report layer does not.
 */
package io.pgbloat.frame;
