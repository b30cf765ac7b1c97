/**
 * Live or dead without a server: the commit log ({@code pg_xact}), multixact members
 * ({@code pg_multixact}), prepared transactions, and the visibility rules built on them.
 * Uses {@code page} (tuple header bits) and {@code io.store} (reading the SLRU files); knows
 * nothing of catalogs, sampling or Spark.
 */
package io.pgbloat.xact;
