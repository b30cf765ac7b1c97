package io.pgbloat.io;

import java.util.List;

/**
 * A storage block of a file on a distributed file system, and the hosts holding a copy.
 *
 * @param offset first byte in the file
 * @param length bytes
 * @param hosts hosts with a replica
 */
public record FileExtent(long offset, long length, List<String> hosts) {}
