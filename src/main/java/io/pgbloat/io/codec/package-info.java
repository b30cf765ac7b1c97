/**
 * Decoding the compressed files of a backup: the compressions PostgreSQL and pgBackRest write,
 * an LZ4 frame reader, a decoded file read at positions, and a stream read ahead on a thread of
 * its own. Uses {@code store} and {@code read}'s settings.
 */
package io.pgbloat.io.codec;
