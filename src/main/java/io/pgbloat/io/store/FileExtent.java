package io.pgbloat.io.store;

import java.util.List;

/**
 * A storage block of a file on a distributed file system, and the hosts holding a copy.
 *
 * @param offset first byte in the file
 * @param length bytes
 * @param hosts hosts with a replica
 */
public record FileExtent(long offset, long length, List<String> hosts) {
  /**
   * The parts of a containing file's {@code extents} over the {@code length} bytes from
   * {@code offset} (a member of an archive, a file in a bundle), in those bytes' own offsets.
   */
  public static List<FileExtent> within(List<FileExtent> extents, long offset, long length) {
    List<FileExtent> inside = new java.util.ArrayList<>();
    for (FileExtent e : extents) {
      long start = Math.max(e.offset(), offset);
      long end = Math.min(e.offset() + e.length(), offset + length);
      if (start < end) {
        inside.add(new FileExtent(start - offset, end - start, e.hosts()));
      }
    }
    return inside;
  }
}
