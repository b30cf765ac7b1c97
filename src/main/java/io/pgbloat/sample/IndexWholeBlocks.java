package io.pgbloat.sample;

import io.pgbloat.io.read.BlockList;
import io.pgbloat.io.read.SegmentedFile;
import io.pgbloat.io.store.FileStore;
import io.pgbloat.page.BrinPage;
import io.pgbloat.page.BtreePage;
import io.pgbloat.page.GinPage;
import io.pgbloat.page.HashPage;
import io.pgbloat.page.HashPageCounts;
import io.pgbloat.page.IndexAccessMethod;
import io.pgbloat.page.IndexPageKind;
import io.pgbloat.page.PageHeader;
import io.pgbloat.page.PageRules;
import io.pgbloat.page.PageVerifier;
import io.pgbloat.page.SpGistPage;
import java.io.IOException;
import java.io.Serializable;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The pages of an index to read whole whatever the sample, because a few of them hold a large
 * share of a figure a sample would rarely see: a btree's rightmost pages (a build, or keys
 * that only grow, packs every leaf to its fillfactor but the last, which holds what is left:
 * one page whose absence makes avg_leaf_density high with a narrow interval), a GIN index's pending list (hundreds of entries
 * a page, against a few posting-list segments on the posting-tree pages) and the top of its
 * entry tree (a root split leaves the root nearly empty with a few downlinks and its children
 * about half full, where the leaves below are often filled alike: a few pages whose free space
 * a sample of tens of blocks mostly misses, and whose absence makes the interval both low and
 * narrow), a BRIN index's range map (every summarized range), a hash index's bitmap pages (one
 * or a few pages of no free space among pages of much the same, whose absence a sample cannot
 * see, so that it takes them for bucket pages). Found before the scan as the
 * server finds them: the btree's root from its metapage (btm_root,
 * {@code src/include/access/nbtree.h}) and each level's right end below it; the GIN root at its fixed block ({@code GIN_ROOT_BLKNO},
 * {@code src/include/access/ginblock.h}), and its children when they are inner pages too (a
 * tree of three levels or more; the levels are even, so the first child tells); from the
 * metapage, the pending list from its head through each page's rightlink
 * ({@code src/backend/access/gin/ginfast.c}), the range map as blocks 1 to lastRevmapPage
 * ({@code src/backend/access/brin/brin_revmap.c}), the bitmap pages as the hash metapage lists
 * them (hashm_mapp, {@code src/include/access/hash.h}); an SP-GiST index's two roots at their
 * fixed blocks ({@code src/include/access/spgist_private.h}). The estimator takes those pages as a part
 * read whole ({@code IndexPageSums}).
 *
 * <p>Where those pages are every page of their kind (a hash index's bitmap pages, all listed in
 * its metapage; a BRIN range map; a pending list followed to its end), the kind is named: no page of it can be
 * among the blocks sampled, so a sample that finds none there is no sampled zero but a known
 * one, and the kind's count is exact. A sampled page of the kind (a page the chain lost to
 * damage) still counts, with the spread it brings.
 *
 * @param blocks the blocks to read whole, sorted
 * @param kindsAllRead the page kinds every page of which is among {@code blocks}
 * @param hashPageCounts a hash index's page counts as its metapage and bitmap pages tell them,
 *     or null (another method, or counts that do not add up)
 */
public record IndexWholeBlocks(BlockList blocks, Set<IndexPageKind> kindsAllRead, HashPageCounts hashPageCounts)
    implements Serializable {
  /** Nothing read whole. */
  public static final IndexWholeBlocks NONE = new IndexWholeBlocks(BlockList.of(), Set.of(), null);

  /**
   * The most pages a btree's rightmost path is followed for: a tree is a few levels deep and a
   * level's right end a page or two past its parent's last downlink, so a longer path is a
   * sibling chain gone wrong, not read further.
   */
  private static final int RIGHTMOST_PATH_LIMIT = 64;

  public IndexWholeBlocks {
    kindsAllRead = Set.copyOf(kindsAllRead);
  }

  /**
   * @param problems receives a line when the metapage or the chain cannot be followed; the
   *     index is then sampled as any other
   */
  public static IndexWholeBlocks of(FileStore files, SegmentedFile file, IndexAccessMethod am, PageRules rules,
      List<String> problems) throws IOException {
    if ((am != IndexAccessMethod.BTREE && am != IndexAccessMethod.GIN && am != IndexAccessMethod.BRIN
        && am != IndexAccessMethod.HASH && am != IndexAccessMethod.SPGIST) || file.blocks() == 0) {
      return NONE;
    }
    if (am == IndexAccessMethod.SPGIST) {
      // the two roots at their fixed blocks: the root, the one inner page of a small tree, and
      // the nulls' root, a leaf unlike the others
      return new IndexWholeBlocks(BlockList.range(SpGistPage.SPGIST_ROOT_BLKNO,
          Math.min(SpGistPage.SPGIST_NULL_BLKNO, file.blocks() - 1)), Set.of(), null);
    }
    PageVerifier verifier = rules.verifier();
    byte[] page = new byte[PageHeader.BLCKSZ];
    TreeSet<Long> blocks = new TreeSet<>();
    try {
      if (am == IndexAccessMethod.GIN) {
        blocks.addAll(entryTreeTop(files, file, verifier, page));
      }
      file.readBlocks(files, 0, 1, page);
      if (verifier.check(page, 0) != null) {
        problems.add("its metapage fails the checks; the index is sampled without reading its "
            + switch (am) {
              case BTREE -> "rightmost pages";
              case GIN -> "pending list";
              case BRIN -> "range map";
              default -> "bitmap pages";
            } + " whole");
        return new IndexWholeBlocks(listOf(blocks), Set.of(), null);
      }
      if (am == IndexAccessMethod.BTREE) {
        return new IndexWholeBlocks(listOf(rightmostPath(files, file, page, verifier, problems)), Set.of(), null);
      }
      if (am == IndexAccessMethod.HASH) {
        return hashBitmaps(files, file, page, verifier);
      }
      if (am == IndexAccessMethod.BRIN) {
        // the range map grows only with the metapage's lastRevmapPage (revmap_physical_extend),
        // from block 1 that a build makes; 0 is no BRIN metapage
        long last = BrinPage.lastRevmapPage(page);
        return new IndexWholeBlocks(BlockList.range(1, Math.max(0, Math.min(last, file.blocks() - 1))),
            last >= 1 && last < file.blocks() ? Set.of(IndexPageKind.REVMAP) : Set.of(), null);
      }
      // a chain longer than the index, or one that loops (or runs into the entry tree), is damage:
      // stop at a revisit
      GinPendingList pending = GinPendingList.following(files, file, verifier, page, blocks);
      blocks.addAll(pending.blocks());
      return new IndexWholeBlocks(listOf(blocks), pending.toItsEnd() ? Set.of(IndexPageKind.PENDING) : Set.of(), null);
    } finally {
      file.release(files);
    }
  }

  /**
   * A hash index's bitmap pages, which the metapage in {@code page} lists, and the page counts
   * they and the metapage tell ({@link HashPageCounts}), read here. Every hash index has a
   * bitmap page; one listed outside the index is damage, and the bitmap pages are then sampled
   * as any other; one that fails the checks, or counts that do not add up, leave the counts to
   * the sample.
   */
  private static IndexWholeBlocks hashBitmaps(FileStore files, SegmentedFile file, byte[] page, PageVerifier verifier)
      throws IOException {
    byte[] meta = page.clone();
    long[] bitmaps = HashPage.bitmapBlocks(meta);
    if (bitmaps.length == 0 || !Arrays.stream(bitmaps).allMatch(b -> b > 0 && b < file.blocks())) {
      return NONE;
    }
    BlockList blocks = listOf(new TreeSet<>(Arrays.stream(bitmaps).boxed().toList()));
    long freeBits = 0;
    for (long b : bitmaps) {
      file.readBlocks(files, b, 1, page);
      long free = verifier.check(page, b) != null ? -1 : HashPage.freeOverflowBits(page, meta);
      if (free < 0) {
        return new IndexWholeBlocks(blocks, Set.of(IndexPageKind.BITMAP), null);
      }
      freeBits += free;
    }
    return new IndexWholeBlocks(blocks, Set.of(IndexPageKind.BITMAP), HashPageCounts.of(meta, freeBits, file.blocks()));
  }

  /**
   * The right end of every level of a btree, from the root its metapage (in {@code page}) names
   * down to the leaves. A root outside the index is damage; a path that loops or runs out of the
   * index stops there.
   */
  private static TreeSet<Long> rightmostPath(FileStore files, SegmentedFile file, byte[] page, PageVerifier verifier,
      List<String> problems) throws IOException {
    TreeSet<Long> path = new TreeSet<>();
    long b = BtreePage.root(page);
    if (b <= 0 || b >= file.blocks()) {
      problems.add("its metapage names no root within the index; the index is sampled without reading its "
          + "rightmost pages whole");
      return path;
    }
    for (; b > 0 && b < file.blocks() && !path.contains(b) && path.size() < RIGHTMOST_PATH_LIMIT; ) {
      file.readBlocks(files, b, 1, page);
      if (verifier.check(page, b) != null) {
        break;
      }
      path.add(b);
      b = BtreePage.nextOnRightmostPath(page, b);
    }
    return path;
  }

  /**
   * The entry tree's root, and its children when they are inner pages: the root alone when it
   * or its first child fails the checks or is a leaf; a downlink outside the index is damage
   * and keeps the children out.
   */
  private static List<Long> entryTreeTop(FileStore files, SegmentedFile file, PageVerifier verifier, byte[] page)
      throws IOException {
    long root = GinPage.GIN_ROOT_BLKNO;
    if (file.blocks() <= root) {
      return List.of();
    }
    file.readBlocks(files, root, 1, page);
    if (verifier.check(page, root) != null || !GinPage.isEntryInner(page)) {
      return List.of(root);
    }
    long[] children = GinPage.entryDownlinks(page);
    if (children.length == 0 || Arrays.stream(children).anyMatch(c -> c <= root || c >= file.blocks())) {
      return List.of(root);
    }
    file.readBlocks(files, children[0], 1, page);
    if (verifier.check(page, children[0]) != null || !GinPage.isEntryInner(page)) {
      return List.of(root);
    }
    List<Long> top = new java.util.ArrayList<>(List.of(root));
    Arrays.stream(children).forEach(top::add);
    return top;
  }

  private static BlockList listOf(TreeSet<Long> blocks) {
    BlockList.Builder list = new BlockList.Builder();
    blocks.forEach(list::add);
    return list.build();
  }

  /**
   * Per position of {@code sample}, its stratum's ordinal: {@link Stratum#TAKE_ALL} for the
   * blocks of {@code whole} (read whole), {@link Stratum#OTHER} for the sampled rest.
   */
  public static byte[] strata(BlockList sample, BlockList whole) {
    java.util.Set<Long> readWhole = new java.util.HashSet<>();
    whole.forEach(readWhole::add);
    byte[] strata = new byte[(int) sample.size()];
    int position = 0;
    for (int run = 0; run < sample.runCount(); run++) {
      for (long b = sample.runStart(run); b < sample.runStart(run) + sample.runLength(run); b++) {
        strata[position++] = (byte) (readWhole.contains(b) ? Stratum.TAKE_ALL : Stratum.OTHER).ordinal();
      }
    }
    return strata;
  }
}
