/**
 * Reading a data directory's files through Hadoop's FileSystem ({@code file://},
 * {@code hdfs://}, ...). A bottom layer beside {@code page}: the commit log, the catalog and
 * the block scan all read through it. Knows nothing of what the bytes mean.
 */
package io.pgbloat.io;
