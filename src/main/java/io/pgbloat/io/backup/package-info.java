/**
 * Backups read in place as the data directory they hold: a {@code pg_basebackup -Ft} directory
 * of tar archives, a pgBackRest repository (its backup.info and manifest) and a Barman Cloud
 * backup (its backup.info and tar archives, under the bucket prefix barman-cloud-backup was
 * given). To index them it knows the data directory's file names (relpath.c), no more of what
 * the files hold. Uses {@code store}, {@code read} and {@code codec}.
 */
package io.pgbloat.io.backup;
