/**
 * Reading a data directory's files: a local one through the JDK, any other through Hadoop's
 * FileSystem ({@code hdfs://}, ...). A bottom layer beside {@code page}: the commit log, the catalog and
 * the block scan all read through it. Knows nothing of what the bytes mean.
 */
package io.pgbloat.io;
