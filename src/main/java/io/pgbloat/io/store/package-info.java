/**
 * Where a data directory's bytes are read from: the {@link io.pgbloat.io.store.FileStore}
 * interface, a local directory through the JDK, O_DIRECT, any other file system through Hadoop,
 * and what a store keeps open. Knows nothing of what the files hold.
 */
package io.pgbloat.io.store;
