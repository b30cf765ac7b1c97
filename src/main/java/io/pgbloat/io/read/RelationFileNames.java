package io.pgbloat.io.read;

import java.util.regex.Pattern;

/**
 * The names of relation files in a data directory ({@code src/common/relpath.c}): a relation's
 * filenode in its database's directory ({@code base/<db>}, or
 * {@code pg_tblspc/<spc>/<version dir>/<db>} in another tablespace) or, for a shared relation,
 * in {@code global}; then its fork's suffix ({@link Fork}) and, past the first segment, a dot
 * and the segment's number ({@link SegmentedFile#segmentPath}).
 */
public final class RelationFileNames {
  /**
   * FirstNormalObjectId ({@code src/include/access/transam.h}): the first OID, and so the first
   * filenode, that initdb does not assign; the objects initdb makes (the system catalogs among
   * them) lie below it.
   */
  public static final long FIRST_NORMAL_OBJECT_ID = 16384;

  /**
   * A segment of a relation's fork, by its path in the data directory: group 1 the filenode,
   * group 2 the fork's suffix ({@link Fork#suffix}; none for the main fork).
   */
  public static final Pattern FORK_SEGMENT =
      Pattern.compile("(?:global|base/\\d+|pg_tblspc/\\d+/[^/]+/\\d+)/(\\d+)(_[a-z]+)?(?:\\.\\d+)?");

  private RelationFileNames() {}
}
