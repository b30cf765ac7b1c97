package io.pgbloat.page;

import java.io.Serializable;

/**
 * What a GIN page holds that a fresh build would write again (GinRebuild's model): on an
 * entry-tree page, its tuples but those whose posting list VACUUM has emptied (a build leaves
 * out a key no heap tuple has); on a posting-tree leaf, its posting lists; on a pending-list
 * page, its tuples, each a key and one heap pointer.
 *
 * @param kept the tuples kept (entry and pending pages)
 * @param keptSpace their room, Σ (MAXALIGN(lp_len) + the line pointer); on a posting-tree leaf
 *     the bytes of its posting lists
 * @param postingTrees entry-leaf tuples whose heap pointers are in a posting tree
 * @param inlineHeapPointers the heap pointers entry-leaf tuples keep inline (each one's ip_posid)
 * @param inlinePostingBytes the bytes of those inline posting lists (compressed, from
 *     GinGetPostingOffset to the tuple's end)
 * @param treeEnd a posting-tree leaf that ends its tree's level (no right sibling): a tree of
 *     one leaf is that leaf alone, and a build keeps its key's heap pointers inline where they,
 *     as the build writes them, fit an entry tuple
 * @param smallTreeEnd such a leaf whose lists with a tuple header fit in
 *     {@link GinPage#GIN_MAX_ITEM_SIZE} now (the key's own bytes are not known there, so a long
 *     key may not leave them room)
 */
public record GinTuples(int kept, int keptSpace, int postingTrees, int inlineHeapPointers, int inlinePostingBytes,
    boolean treeEnd, boolean smallTreeEnd) implements BuildEntries, Serializable {

  /**
   * The room a build's entry pages give these tuples (an entry page's): a build inserts keys in
   * key order, each to the right of the last, so every page it leaves behind is the left half of
   * a split ({@link #splitLeftRoom}) of tuples like these, a page's neighbours in key order.
   */
  public int buildRoom() {
    if (kept == 0 || keptSpace == 0) {
      return 0;
    }
    return (int) Math.round(keptSpace * (double) GinPage.ENTRY_PAGE_ROOM / splitLeftRoom(keptSpace / (double) kept));
  }

  /**
   * The bytes the left page keeps when an entry page full of tuples of {@code tupleRoom} bytes
   * each (line pointer in) splits to take one more at its right end ({@code ginentrypage.c},
   * entrySplitPage, the same 13-18): the n that fit and the new one are dealt out in order, the
   * left page taking each while it holds no more than half their bytes, so floor((n + 1) / 2) + 1
   * of them, not half: three of the largest, which fill a page three at a time.
   */
  public static double splitLeftRoom(double tupleRoom) {
    if (!(tupleRoom > 0)) {
      return GinPage.ENTRY_PAGE_ROOM / 2.0;
    }
    int fit = (int) Math.floor(GinPage.ENTRY_PAGE_ROOM / tupleRoom);
    int left = Math.max(1, Math.min(fit, (fit + 1) / 2 + 1));
    return left * tupleRoom;
  }
}
