package io.pgbloat.sample;

import io.pgbloat.io.read.SegmentedFile;
import io.pgbloat.io.store.FileStore;
import io.pgbloat.page.GinPage;
import io.pgbloat.page.GinPendingKeys;
import io.pgbloat.page.PageHeader;
import io.pgbloat.page.PageRules;
import io.pgbloat.page.PageVerifier;
import java.io.IOException;
import java.io.Serializable;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A GIN index's pending list ({@code src/backend/access/gin/ginfast.c}): its pages, from the
 * head the metapage names through each page's rightlink, and the distinct keys its tuples
 * hold, which a build merges into the entry tree, each key once. Read whole before the scan,
 * whatever the sample: a few pages.
 *
 * @param blocks the pages, in chain order; a chain that loops, leaves the index or meets a page
 *     that fails the checks or is no pending-list page stops there
 * @param keys the distinct keys of the pages' tuples, by the tuples each has
 * @param toItsEnd the chain was followed to its end (a rightlink of InvalidBlockNumber; an empty
 *     list's head): every page of the list is among {@code blocks}
 */
public record GinPendingList(List<Long> blocks, GinPendingKeys keys, boolean toItsEnd) implements Serializable {
  /** No pending list, or one not read. */
  public static final GinPendingList NONE = new GinPendingList(List.of(), GinPendingKeys.NONE, false);

  public GinPendingList {
    blocks = List.copyOf(blocks);
  }

  /** The pending list of the GIN index in {@code file}; {@link #NONE} when its metapage fails the checks. */
  public static GinPendingList of(FileStore files, SegmentedFile file, PageRules rules) throws IOException {
    if (file.blocks() == 0) {
      return NONE;
    }
    PageVerifier verifier = rules.verifier();
    byte[] page = new byte[PageHeader.BLCKSZ];
    try {
      file.readBlocks(files, GinPage.GIN_METAPAGE_BLKNO, 1, page);
      return verifier.check(page, GinPage.GIN_METAPAGE_BLKNO) != null ? NONE
          : following(files, file, verifier, page, Set.of());
    } finally {
      file.release(files);
    }
  }

  /**
   * The chain from the head the metapage in {@code page} names (which it overwrites), stopping
   * at a block of {@code taken} (the entry tree) as at a revisit.
   */
  static GinPendingList following(FileStore files, SegmentedFile file, PageVerifier verifier, byte[] page,
      Set<Long> taken) throws IOException {
    List<Long> blocks = new ArrayList<>();
    Set<Long> seen = new HashSet<>(taken);
    Map<ByteBuffer, Integer> tuples = new HashMap<>();
    long b = GinPage.pendingListHead(page);
    while (b > 0 && b < file.blocks() && seen.add(b)) {
      file.readBlocks(files, b, 1, page);
      if (verifier.check(page, b) != null || !GinPage.isPendingListPage(page)) {
        break;
      }
      blocks.add(b);
      for (ByteBuffer key : GinPage.pendingKeys(page)) {
        tuples.merge(key, 1, Integer::sum);
      }
      b = GinPage.rightlink(page);
    }
    Map<Integer, long[]> byTuples = new TreeMap<>(); // keys, bytes
    tuples.forEach((key, count) -> {
      long[] group = byTuples.computeIfAbsent(count, c -> new long[2]);
      group[0]++;
      group[1] += GinPage.pendingKeyRoom(key);
    });
    List<GinPendingKeys.KeyGroup> groups = new ArrayList<>();
    byTuples.forEach((count, g) -> groups.add(new GinPendingKeys.KeyGroup(count, g[0], g[1])));
    return new GinPendingList(blocks, new GinPendingKeys(groups), b == -1);
  }
}
