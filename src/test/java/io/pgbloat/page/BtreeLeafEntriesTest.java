package io.pgbloat.page;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

class BtreeLeafEntriesTest {
  private static final int KEY = 16; // IndexTupleData and an int4 key, MAXALIGNed
  private static final BtreeLeafFill FILL = new BtreeLeafFill(IndexAccessMethod.BTREE.defaultFillfactor());

  @Test
  void aRunOverTheWholeLeafCountsItsLastPostingListAsItsShareOfAFullOne() {
    // a leaf of 300 TIDs of one key: two full posting lists and 36 TIDs that a build writes in
    // full lists with the run's TIDs on the next leaves
    BtreeLeafFill.Items items = new BtreeLeafFill.Items();
    assertEquals(2 * (808 + 4) + (232 + 4), BtreeLeafEntries.deduplicatedBytes(KEY, 300, items, true));
    // nine of 808 bytes a leaf at fillfactor 90
    assertEquals(Math.round((2 + 36 / 132.0) * BtreePage.MAX_AVAIL / 9), FILL.room(items));
  }

  @Test
  void aBuildMergesEqualKeysIntoPostingListsOfAtMost812Bytes() {
    assertEquals(812, BtreeLeafEntries.MAX_POSTING_SIZE);
    assertEquals(KEY + 4, BtreeLeafEntries.deduplicatedBytes(KEY, 1, new BtreeLeafFill.Items(), false)); // one TID: a plain tuple
    assertEquals(32 + 4, BtreeLeafEntries.deduplicatedBytes(KEY, 2, new BtreeLeafFill.Items(), false)); // MAXALIGN(16 + 12)
    // 132 TIDs fill a posting list (MAXALIGN(16 + 792) = 808 <= 812); 300 are two of them and one of 36
    assertEquals(2 * (808 + 4) + (232 + 4), BtreeLeafEntries.deduplicatedBytes(KEY, 300, new BtreeLeafFill.Items(), false));
    assertEquals(2 * (808 + 4) + (KEY + 4), BtreeLeafEntries.deduplicatedBytes(KEY, 265, new BtreeLeafFill.Items(), false)); // a last one alone
    // a key too wide for two TIDs in 812 bytes is never merged
    assertEquals(3 * (800 + 4), BtreeLeafEntries.deduplicatedBytes(800, 3, new BtreeLeafFill.Items(), false));
  }

  /**
   * A leaf of a high key, key 7 as two plain tuples and a posting list of 3 TIDs, a dead key 8,
   * and key 9 alone: a build writes 5 + 1 tuples, or one posting list of key 7's 5 TIDs.
   */
  @Test
  void aLeafsLiveEntriesAreCountedAsABuildWritesThem() {
    Leaf leaf = new Leaf();
    leaf.plain(99, ItemId.LP_NORMAL); // the high key
    leaf.plain(7, ItemId.LP_NORMAL);
    leaf.plain(7, ItemId.LP_NORMAL);
    leaf.posting(7, 3);
    leaf.plain(8, ItemId.LP_DEAD);
    leaf.plain(9, ItemId.LP_NORMAL);
    BtreeLeafEntries.Bytes bytes = BtreeLeafEntries.of(leaf.page, false, 1234, FILL);
    assertTrue(bytes.decoded());
    int highKey = KEY + 4;
    assertEquals(highKey + 6 * (KEY + 4), bytes.plain());
    assertEquals(highKey + (PageHeader.maxAlign(KEY + 5 * 6) + 4) + (KEY + 4), bytes.deduplicated());
    assertEquals(6, bytes.tids()); // key 7's five and key 9's; the dead one and the high key are none
    // the rightmost leaf has no high key: its first item is data
    assertEquals(7 * (KEY + 4), BtreeLeafEntries.of(leaf.page, true, 1234, FILL).plain());
  }

  @Test
  void aDamagedItemLeavesTheBytesInUse() {
    Leaf leaf = new Leaf();
    leaf.plain(7, ItemId.LP_NORMAL);
    ByteBuffer.wrap(leaf.page).order(ByteOrder.LITTLE_ENDIAN).putShort(leaf.lastTuple + 6, (short) 0x1FF0);
    BtreeLeafEntries.Bytes bytes = BtreeLeafEntries.of(leaf.page, true, 1234, FILL);
    assertFalse(bytes.decoded());
    assertEquals(1234, bytes.plain());
    assertEquals(1234, bytes.deduplicated());
  }

  @Test
  void linePointersOverlappingOneTupleAreDamage() {
    Leaf leaf = new Leaf();
    leaf.plain(7, ItemId.LP_NORMAL);
    leaf.plain(8, ItemId.LP_NORMAL);
    // a third line pointer to the first tuple: more tuple bytes than lie between pd_upper and pd_special
    ByteBuffer b = ByteBuffer.wrap(leaf.page).order(ByteOrder.LITTLE_ENDIAN);
    b.putInt(leaf.lower, b.getInt(PageHeader.SIZE_OF_PAGE_HEADER_DATA));
    b.putShort(PageHeader.PD_LOWER_OFFSET, (short) (leaf.lower + 4));
    BtreeLeafEntries.Bytes bytes = BtreeLeafEntries.of(leaf.page, true, 1234, FILL);
    assertFalse(bytes.decoded());
    assertEquals(1234, bytes.plain());
  }

  /** A btree leaf built item by item, tuples from the special space down. */
  private static final class Leaf {
    final byte[] page = new byte[PageHeader.BLCKSZ];
    private final ByteBuffer b = ByteBuffer.wrap(page).order(ByteOrder.LITTLE_ENDIAN);
    int lower = PageHeader.SIZE_OF_PAGE_HEADER_DATA;
    int upper = BtreePage.BTREE_PD_SPECIAL;
    int lastTuple;

    Leaf() {
      b.putShort(PageHeader.PD_SPECIAL_OFFSET, (short) BtreePage.BTREE_PD_SPECIAL);
      header();
    }

    void plain(int key, int flags) {
      int at = add(KEY, flags);
      b.putShort(at + 6, (short) KEY);
      b.putInt(at + 8, key);
    }

    void posting(int key, int tids) {
      int size = PageHeader.maxAlign(KEY + tids * 6);
      int at = add(size, ItemId.LP_NORMAL);
      b.putShort(at, (short) 0).putShort(at + 2, (short) KEY); // ip_blkid: the posting list's offset
      b.putShort(at + 4, (short) (0x2000 | tids)); // BT_IS_POSTING and the TID count
      b.putShort(at + 6, (short) (0x2000 | size)); // INDEX_ALT_TID_MASK and the size
      b.putInt(at + 8, key);
    }

    private int add(int size, int flags) {
      upper -= size;
      b.putInt(lower, upper | flags << 15 | size << 17);
      lower += 4;
      header();
      lastTuple = upper;
      return upper;
    }

    private void header() {
      b.putShort(PageHeader.PD_LOWER_OFFSET, (short) lower);
      b.putShort(PageHeader.PD_UPPER_OFFSET, (short) upper);
    }
  }
}
