package io.pgbloat.page;

import java.io.Serializable;
import java.util.List;

/**
 * The distinct keys of a GIN pending list ({@code src/backend/access/gin/ginfast.c}), which a
 * build merges into the entry tree, in groups by the pending tuples each key has: a pending
 * tuple is a key and one heap pointer.
 *
 * @param groups the keys, by the tuples each has
 */
public record GinPendingKeys(List<KeyGroup> groups) implements Serializable {
  public static final GinPendingKeys NONE = new GinPendingKeys(List.of());

  /**
   * @param pointers the pending tuples of each key of the group
   * @param keys the keys
   * @param bytes one entry tuple of no heap pointer each ({@link GinPage#pendingKeyRoom}), in all
   */
  public record KeyGroup(int pointers, long keys, long bytes) implements Serializable {}

  public GinPendingKeys {
    groups = List.copyOf(groups);
  }

  /** The distinct keys. */
  public long distinct() {
    return groups.stream().mapToLong(KeyGroup::keys).sum();
  }

  /** Their entry tuples' bytes. */
  public long bytes() {
    return groups.stream().mapToLong(KeyGroup::bytes).sum();
  }
}
