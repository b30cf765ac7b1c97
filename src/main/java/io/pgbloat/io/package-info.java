/**
 * Opening a data directory's files, whatever holds them ({@link io.pgbloat.io.FileStores}): a
 * directory, a {@code pg_basebackup -Ft} directory or a pgBackRest repository. Below it:
 * {@code store} (where bytes are read from), {@code read} (how a relation's blocks are read),
 * {@code codec} (decoding compressed files), {@code backup} (backups read in place). A bottom
 * layer beside {@code page}: the commit log, the catalog and the block scan all read through it.
 */
package io.pgbloat.io;
