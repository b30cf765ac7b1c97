package io.pgbloat.io.store;

import java.util.List;

/**
 * One entry of a directory's listing, as one listing request gives it.
 *
 * @param name the entry's name (not its path)
 * @param directory whether it is a directory
 * @param length a file's length in bytes; -1 for a directory
 * @param extents where a file's bytes live ({@link FileStore#extents}) when the listing said;
 *     null when it did not, so that they are asked for on their own
 */
public record DirectoryEntry(String name, boolean directory, long length, List<FileExtent> extents) {}
