package io.pgbloat.rebuild;

import io.pgbloat.page.GinPage;
import io.pgbloat.page.GinPendingKeys;
import io.pgbloat.page.GinTuples;
import io.pgbloat.page.IndexTuple;
import io.pgbloat.page.ItemId;
import io.pgbloat.page.PageHeader;
import io.pgbloat.stats.Estimate;
import io.pgbloat.stats.IndexMeasure;
import java.util.List;
import java.util.function.DoubleUnaryOperator;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;

/**
 * What a {@code REINDEX} of a GIN index would give back: its size less that of a fresh build.
 * A build ({@code src/backend/access/gin/gininsert.c}, ginbuild, the same 13-18) gathers every
 * key's heap pointers in memory and inserts the keys in key order (ginEntryInsert): a key's
 * list kept inline in its entry tuple where it fits, else in a posting tree whose leaves are
 * packed full ({@code gindatapage.c}, isBuild). Entry pages split at half their bytes
 * ({@code ginentrypage.c}, entrySplitPage, with no case for a build), and each key goes to the
 * right of the last, so every entry page a build leaves behind is the left page of a split
 * ({@link GinTuples#splitLeftRoom}) and the last one is filled further; the levels above are
 * built from the downlinks alike. The metapage comes first; a build leaves no pending list and
 * no deleted page.
 *
 * <p>The model takes the entry tuples as they are but those VACUUM has left with no heap
 * pointer ({@link io.pgbloat.page.GinTuples}), each posting list, inline or in a tree, thinned
 * to the share of heap pointers a build keeps ({@link IndexBuild#keptShare}: before VACUUM the
 * lists also point to rows deleted or updated away; a key all of whose rows are gone is kept,
 * towards less to give back), the posting trees as many as now, their posting lists packed,
 * but for the trees of one leaf whose lists, thinned as the build thins them, fit an entry
 * tuple: a build keeps those inline ({@link #inlineTreeEnds}; such a leaf ends its level; the
 * trees with an inner page, as many as there are inner pages, end in one too, and are taken
 * out of the count), and each pending-list tuple as one more heap pointer in a posting list, at
 * the bytes a heap pointer takes in the inline lists now ({@link #listBytesPerPointer} when
 * there are none): of a key the tree holds, in its list; of a key new to it, in an entry of its
 * own ({@link NewEntries}), new only where the list holds more distinct keys than the tree
 * ({@link #reclaimableBytes}).
 * An index larger than maintenance_work_mem is built in several passes that insert into the
 * pages earlier passes wrote; the model describes one pass.
 */
public final class GinRebuild {
  /** Bits of an integer one varbyte byte holds ({@code ginpostinglist.c}). */
  private static final int VARBYTE_BITS = 7;
  /** MaxHeapTuplesPerPageBits: the bits of a TID's offset in a posting list's integer ({@code ginpostinglist.c}). */
  private static final int MAX_HEAP_TUPLES_PER_PAGE_BITS = 11;

  private GinRebuild() {}

  /**
   * The pages a build fills with {@code space} bytes of tuples (line pointers in) inserted in
   * key order, each page it leaves behind holding {@code leftRoom} of them: the last page takes
   * what remains, up to a whole page.
   */
  static double pagesOfSortedInserts(double space, double leftRoom) {
    if (!(space > 0)) {
      return 0;
    }
    return 1 + Math.ceil(Math.max(0, space - GinPage.ENTRY_PAGE_ROOM) / leftRoom);
  }

  /**
   * The blocks of a fresh build: the metapage, the entry leaves ({@code entryLeafSpace} bytes,
   * {@code leafLeftRoom} of them a page but the last), the levels of downlinks above them (each
   * downlink of the mean size the inner tuples have now, or the leaves' when there is no inner
   * page), the posting trees' leaves packed (at least one a tree) and their inner pages as many
   * as now; the trees of one small leaf taken inline.
   */
  static double freshBlocks(double entryLeafSpace, double entryLeafItems, double leafLeftRoom, double entryInnerSpace,
      double entryInnerItems, double pendingPointers, double bytesPerPointer, double postingTrees,
      double postingLeafSpace, double postingInnerPages, double smallTreeEnds, double smallTreeEndBytes) {
    double inlined = Math.max(0, Math.round(smallTreeEnds - postingInnerPages));
    double inlinedBytes = smallTreeEnds > 0 ? smallTreeEndBytes * inlined / smallTreeEnds : 0;
    double trees = postingTrees - inlined;
    double treeBytes = postingLeafSpace - inlinedBytes;
    double leafSpace = entryLeafSpace + inlinedBytes + pendingPointers * bytesPerPointer;
    double leafItems = entryLeafItems;
    double leaves = pagesOfSortedInserts(leafSpace, leafLeftRoom);
    double downlink = entryInnerItems > 0 ? entryInnerSpace / entryInnerItems
        : leafItems > 0 ? leafSpace / leafItems : 0;
    double inner = 0;
    for (double level = leaves; level > 1 && Double.isFinite(level); ) { // an unbounded end stays so
      // each level at most half the one below: a page holds two downlinks at least
      level = Math.min(pagesOfSortedInserts(level * downlink, GinTuples.splitLeftRoom(downlink)),
          Math.ceil(level / 2));
      inner += level;
    }
    double postingLeaves = trees <= 0 ? 0
        : Math.max(Math.round(trees), Math.ceil(treeBytes / GinPage.GIN_DATA_PAGE_MAX_DATA_SIZE));
    return 1 + Math.max(1, leaves) + inner + postingLeaves + Math.round(postingInnerPages);
  }

  /**
   * The bytes of posting lists of {@code bytes} holding {@code pointers} heap pointers once
   * thinned to {@code share} of them: a list stores each pointer as its distance from the last
   * in varbyte groups of seven bits ({@code ginpostinglist.c}), and the distances of a list
   * thinned at random grow by 1/share, so a pointer takes log2(1/share) / 7 bytes more.
   */
  static double thinnedBytes(double bytes, double pointers, double share) {
    if (share >= 1 || pointers <= 0) {
      return bytes * Math.min(1, Math.max(0, share));
    }
    if (share <= 0) {
      return 0;
    }
    return share * (bytes + pointers * Math.log(1 / share) / Math.log(2) / VARBYTE_BITS);
  }

  /** The totals the model reads. */
  private static final List<IndexMeasure> MODEL_INPUTS = List.of(IndexMeasure.ENTRY_LEAF_SPACE,
      IndexMeasure.ENTRY_LEAF_ITEMS, IndexMeasure.ENTRY_LEAF_BUILD_ROOM, IndexMeasure.ENTRY_INNER_SPACE,
      IndexMeasure.ENTRY_INNER_ITEMS, IndexMeasure.INLINE_HEAP_POINTERS, IndexMeasure.INLINE_POSTING_BYTES,
      IndexMeasure.POSTING_TREES, IndexMeasure.POSTING_LEAF_SPACE, IndexMeasure.POSTING_INNER_PAGES,
      IndexMeasure.SMALL_TREE_ENDS, IndexMeasure.SMALL_TREE_END_BYTES, IndexMeasure.POSTING_LEAF_POINTERS,
      IndexMeasure.TREE_ENDS, IndexMeasure.TREE_END_BYTES, IndexMeasure.TREE_END_POINTERS);

  /**
   * The bytes a heap pointer takes in compressed posting lists of {@code pointersPerKey}
   * pointers each over a heap of {@code heapBlocks} blocks, where no list of the index tells
   * it: a list stores each pointer as its distance from the last, a TID coded as
   * block &lt;&lt; 11 | offset ({@code ginpostinglist.c}, MaxHeapTuplesPerPageBits) in varbyte
   * groups of seven bits; the pointers of a key spread over the heap, so a distance is the
   * heap's TIDs over the list's pointers.
   */
  static double listBytesPerPointer(double heapBlocks, double pointersPerKey) {
    if (!(heapBlocks > 0) || !(pointersPerKey > 0)) {
      return IndexTuple.SIZE_OF_ITEM_POINTER_DATA; // nothing to go by: uncompressed
    }
    double distance = Math.max(1, heapBlocks * (1 << MAX_HEAP_TUPLES_PER_PAGE_BITS) / pointersPerKey);
    return Math.min(IndexTuple.SIZE_OF_ITEM_POINTER_DATA,
        Math.ceil(Math.log(distance + 1) / Math.log(2) / VARBYTE_BITS));
  }

  /**
   * reclaimable_bytes of a GIN index of {@code blocks} blocks whose page totals {@code total}
   * gives, over a table of {@code heapBlocks} blocks (0 when not counted), a build keeping
   * {@code keptShare} of its heap pointers and merging the {@code pendingKeys} of its pending
   * list into the entry tree; its interval that of every total the model reads and of the share
   * ({@link PageModelEstimate}). Which of the pending keys the tree already holds the pages do
   * not say: the figure takes none new but those the tree cannot hold (more than its keys),
   * and its interval reaches to all of them new.
   */
  public static Estimate reclaimableBytes(long blocks, Function<IndexMeasure, Estimate> total, Estimate keptShare,
      GinPendingKeys pendingKeys, long heapBlocks) {
    double distinct = pendingKeys.distinct();
    double fewestNew = Math.max(0, distinct - total.apply(IndexMeasure.ENTRY_LEAF_ITEMS).value());
    Estimate fewest = reclaimableBytes(blocks, total, keptShare, pendingKeys, distinct > 0 ? fewestNew / distinct : 0,
        heapBlocks);
    if (distinct <= fewestNew || !fewest.isKnown()) {
      return fewest;
    }
    Estimate most = reclaimableBytes(blocks, total, keptShare, pendingKeys, 1, heapBlocks);
    return new Estimate(fewest.value(), fewest.standardError(), Math.min(fewest.low(), most.low()), fewest.high());
  }

  /** reclaimable_bytes, as the public form gives it, with {@code newShare} of the pending keys new to the tree. */
  private static Estimate reclaimableBytes(long blocks, Function<IndexMeasure, Estimate> total, Estimate keptShare,
      GinPendingKeys pendingKeys, double newShare, long heapBlocks) {
    double size = (double) blocks * PageHeader.BLCKSZ;
    Estimate[] inputs = Stream.concat(MODEL_INPUTS.stream().map(total), Stream.of(keptShare))
        .toArray(Estimate[]::new);
    return PageModelEstimate.of(x -> {
      ToDoubleFunction<IndexMeasure> v = m -> x[MODEL_INPUTS.indexOf(m)];
      double share = x[MODEL_INPUTS.size()];
      double pointers = v.applyAsDouble(IndexMeasure.INLINE_HEAP_POINTERS);
      double inlineBytes = v.applyAsDouble(IndexMeasure.INLINE_POSTING_BYTES);
      double keptInline = thinnedBytes(inlineBytes, pointers, share);
      // the bytes a kept heap pointer takes in a list: as in the inline lists now, else by its list's length
      DoubleUnaryOperator perPointer = listPointers -> pointers > 0 && share > 0
          ? keptInline / (pointers * share) : listBytesPerPointer(heapBlocks, listPointers);
      double treeKeys = v.applyAsDouble(IndexMeasure.ENTRY_LEAF_ITEMS);
      double treeSpace = v.applyAsDouble(IndexMeasure.ENTRY_LEAF_SPACE) - inlineBytes + keptInline;
      double oldKeyPending = (1 - newShare) * share * pendingKeys.groups().stream()
          .mapToDouble(g -> (double) g.pointers() * g.keys()).sum();
      NewEntries added = NewEntries.of(pendingKeys, newShare, share, perPointer);
      double treeBytes = v.applyAsDouble(IndexMeasure.POSTING_LEAF_SPACE);
      double keptTreeBytes = thinnedBytes(treeBytes, v.applyAsDouble(IndexMeasure.POSTING_LEAF_POINTERS), share);
      double[] inlineEnds = inlineTreeEnds(v, share, treeBytes > 0 ? keptTreeBytes / treeBytes : 0);
      double treeRoom = treeSpace > 0 ? treeSpace * GinPage.ENTRY_PAGE_ROOM
          / leafLeftRoom(v, treeKeys > 0 ? treeSpace / treeKeys : 0) : 0;
      double leafSpace = treeSpace + added.space();
      double leftRoom = leafSpace > 0 && treeRoom + added.buildRoom() > 0
          ? leafSpace * GinPage.ENTRY_PAGE_ROOM / (treeRoom + added.buildRoom()) : GinTuples.splitLeftRoom(0);
      double keys = treeKeys + added.keys();
      return size - PageHeader.BLCKSZ * freshBlocks(leafSpace, keys, leftRoom,
          v.applyAsDouble(IndexMeasure.ENTRY_INNER_SPACE), v.applyAsDouble(IndexMeasure.ENTRY_INNER_ITEMS),
          oldKeyPending, perPointer.applyAsDouble(keys > 0 ? oldKeyPending / keys : 0),
          v.applyAsDouble(IndexMeasure.POSTING_TREES) + added.trees(), keptTreeBytes + added.treeBytes(),
          v.applyAsDouble(IndexMeasure.POSTING_INNER_PAGES), inlineEnds[0], inlineEnds[1]);
    }, inputs);
  }

  /**
   * The entries a build adds for the pending keys new to the tree: each key's tuple of no heap
   * pointer with its pending tuples' heap pointers, kept at {@code share}, inline where the tuple
   * stays within {@link GinPage#GIN_MAX_ITEM_SIZE}, else in a posting tree of their bytes.
   *
   * @param keys the new entries
   * @param space their entry tuples' bytes, line pointers in
   * @param buildRoom the room a build's entry pages give them ({@link GinTuples#splitLeftRoom}, each key's own size)
   * @param trees the posting trees among them
   * @param treeBytes those trees' posting lists
   */
  private record NewEntries(double keys, double space, double buildRoom, double trees, double treeBytes) {
    static NewEntries of(GinPendingKeys pending, double newShare, double share,
        DoubleUnaryOperator perPointer) {
      double keys = 0, space = 0, room = 0, trees = 0, treeBytes = 0;
      for (GinPendingKeys.KeyGroup g : pending.groups()) {
        double count = g.keys() * newShare;
        if (!(count > 0)) {
          continue;
        }
        double kept = g.pointers() * share;
        double list = kept * perPointer.applyAsDouble(kept);
        double keyRoom = (double) g.bytes() / g.keys();
        double tuple = keyRoom + list;
        if (tuple - ItemId.SIZE_OF_ITEM_ID_DATA > GinPage.GIN_MAX_ITEM_SIZE) {
          trees += count;
          treeBytes += count * list;
          tuple = keyRoom;
        }
        keys += count;
        space += count * tuple;
        room += count * tuple * GinPage.ENTRY_PAGE_ROOM / GinTuples.splitLeftRoom(tuple);
      }
      return new NewEntries(keys, space, room, trees, treeBytes);
    }
  }

  /**
   * The bytes each entry leaf a build leaves behind holds of the tree's tuples, of
   * {@code tupleRoom} bytes on the mean: the split's left page for tuples of that size, times
   * what the leaves' own tuples, whose sizes vary, give over what their mean size would
   * ({@link GinTuples#buildRoom} counts each page's; large tuples fill a split's left page
   * further than small ones).
   */
  private static double leafLeftRoom(ToDoubleFunction<IndexMeasure> v, double tupleRoom) {
    double space = v.applyAsDouble(IndexMeasure.ENTRY_LEAF_SPACE);
    double buildRoom = v.applyAsDouble(IndexMeasure.ENTRY_LEAF_BUILD_ROOM);
    double items = v.applyAsDouble(IndexMeasure.ENTRY_LEAF_ITEMS);
    double ofTuples = GinTuples.splitLeftRoom(tupleRoom);
    if (!(space > 0) || !(buildRoom > 0) || !(items > 0)) {
      return ofTuples;
    }
    double measured = space * GinPage.ENTRY_PAGE_ROOM / buildRoom;
    return ofTuples * measured / GinTuples.splitLeftRoom(space / items);
  }

  /**
   * The posting-tree leaves ending their level whose lists, as a build keeps them, fit an entry
   * tuple, and those lists' bytes: the ones that fit now, thinned as all lists are
   * ({@code keptShareOfTreeBytes}), and the others too where their mean list thinned to
   * {@code share} of its pointers ({@link #thinnedBytes}) fits: a key whose rows were deleted
   * or updated away leaves its tree for an inline list.
   */
  private static double[] inlineTreeEnds(ToDoubleFunction<IndexMeasure> v, double share, double keptShareOfTreeBytes) {
    double small = v.applyAsDouble(IndexMeasure.SMALL_TREE_ENDS);
    double smallBytes = v.applyAsDouble(IndexMeasure.SMALL_TREE_END_BYTES);
    double endBytes = v.applyAsDouble(IndexMeasure.TREE_END_BYTES);
    double others = v.applyAsDouble(IndexMeasure.TREE_ENDS) - small;
    double otherBytes = endBytes - smallBytes;
    double inline = small;
    double inlineBytes = smallBytes * keptShareOfTreeBytes;
    if (others >= 1 && otherBytes > 0 && share < 1) {
      double otherPointers = v.applyAsDouble(IndexMeasure.TREE_END_POINTERS) * otherBytes / endBytes;
      double kept = thinnedBytes(otherBytes / others, otherPointers / others, share);
      if (kept + IndexTuple.SIZE_OF_INDEX_TUPLE_DATA <= GinPage.GIN_MAX_ITEM_SIZE) {
        inline += others;
        inlineBytes += kept * others;
      }
    }
    return new double[] {inline, inlineBytes};
  }
}
