/**
 * Where a data directory's bytes are read from: the {@link io.pgbloat.io.store.FileStore}
 * interface, a local directory through the JDK, O_DIRECT, any other file system through Hadoop,
 * what a store keeps open, and what an object store's failure (credentials, bucket, throttling,
 * endpoint) means to its user, in one line without a secret. Knows nothing of what the files hold.
 */
package io.pgbloat.io.store;
