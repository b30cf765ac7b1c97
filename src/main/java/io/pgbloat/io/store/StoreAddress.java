package io.pgbloat.io.store;

import java.io.Serializable;

/**
 * How a task opens the files the driver opened: the data directory as given, the Hadoop
 * settings the driver reached it with, and for a backup the index the driver read
 * ({@link BackupIndex}), so that no task reads it again.
 *
 * @param dataDir the data directory as the user gave it (a path, a URI, a pgbackrest: address)
 * @param settings the Hadoop settings it is reached with
 * @param index the backup's index, or null for a plain data directory
 */
public record StoreAddress(String dataDir, StoreSettings settings, BackupIndex index) implements Serializable {}
