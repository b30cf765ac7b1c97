package io.pgbloat.io.store;

/**
 * One entry of a directory's listing, as one listing request gives it.
 *
 * @param name the entry's name (not its path)
 * @param directory whether it is a directory
 * @param length a file's length in bytes; -1 for a directory
 */
public record DirectoryEntry(String name, boolean directory, long length) {}
