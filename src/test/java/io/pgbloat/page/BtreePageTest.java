package io.pgbloat.page;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.testing.SampleData;
import java.io.IOException;
import java.io.RandomAccessFile;
import org.junit.jupiter.api.Test;

/**
 * One real btree page and one real metapage of the sample (pg_class_oid_index of database
 * postgres, written by PostgreSQL 15), and copies of them changed in one field each.
 */
class BtreePageTest {
  /** pg_class_oid_index in database postgres of the sample: block 3 its root, block 1 a leaf. */
  private static final String PG_CLASS_OID_INDEX = "base/5/2662";

  private final PageRules checked = new PageRules(true, FreeSpaceRule.ROOM_FOR_A_TUPLE);
  /** BTREE_DEFAULT_FILLFACTOR: the leaves' build figures are not what these tests check. */
  private static final int FILLFACTOR = IndexAccessMethod.BTREE.defaultFillfactor();
  private final BtreePage unchecked = new BtreePage(new PageRules(false, FreeSpaceRule.ROOM_FOR_A_TUPLE), FILLFACTOR);

  @Test
  void decodesARealLeafAsPgstatindexClassifiesIt() throws IOException {
    byte[] page = read(PG_CLASS_OID_INDEX, 1);
    IndexPageStats stats = new BtreePage(checked, FILLFACTOR).count(page, 1);
    assertNull(stats.problem());
    assertEquals(IndexPageKind.LEAF, stats.kind());
    assertEquals(BtreePage.BTP_LEAF, BtreePage.flags(page) & (BtreePage.BTP_LEAF | BtreePage.BTP_ROOT));
    assertEquals(0, BtreePage.level(page));
    assertEquals(BtreePage.BTREE_PD_SPECIAL, PageHeader.special(page));
    assertEquals(8176, BtreePage.BTREE_PD_SPECIAL);
    assertEquals(8152, BtreePage.MAX_AVAIL); // pd_special - SizeOfPageHeaderData
    assertEquals(PageHeader.upper(page) - PageHeader.lower(page) - ItemId.SIZE_OF_ITEM_ID_DATA, stats.freeSpace());
    assertFalse(stats.fragment());
    BtreeLeafEntries.Bytes build = (BtreeLeafEntries.Bytes) stats.build();
    assertTrue(build.decoded());
    assertEquals(build.tids(), stats.heapItems());
  }

  /**
   * The pass over a compressed backup counts a btree page once and measures its free space by
   * each rule after: the same stats as a count under that rule, on a leaf, an internal page, the
   * metapage, and a leaf whose item is damaged (its build bytes are its bytes in use, which the
   * rule changes).
   */
  @Test
  void aPageCountedUnderOneRuleIsAnotherRulesCountWithItsFreeSpace() throws IOException {
    byte[] damaged = read(PG_CLASS_OID_INDEX, 1);
    setUint16(damaged, ItemId.offset(ItemId.word(damaged, 2)) + IndexTuple.T_INFO_OFFSET, 0x1FF0);
    BtreePage exact = new BtreePage(new PageRules(false, FreeSpaceRule.EXACT), FILLFACTOR);
    for (int block : new int[] {0, 1, 3, -1}) {
      byte[] page = block < 0 ? damaged : read(PG_CLASS_OID_INDEX, block);
      long number = block < 0 ? 1 : block;
      IndexPageStats underRule = unchecked.count(page, number);
      assertEquals(underRule, unchecked.recount(exact.count(page, number), page, number));
      assertEquals(exact.count(page, number), exact.recount(underRule, page, number));
    }
    BtreeLeafEntries.Bytes build = (BtreeLeafEntries.Bytes) unchecked.count(damaged, 1).build();
    assertFalse(build.decoded());
    assertEquals(BtreePage.MAX_AVAIL - unchecked.count(damaged, 1).freeSpace(), build.plain());
  }

  @Test
  void readsTheRealMetapage() throws IOException {
    assertNull(new BtreePage(checked, FILLFACTOR).count(read(PG_CLASS_OID_INDEX, 0), 0).problem());
    IndexMetapage meta = IndexMetapage.of(IndexAccessMethod.BTREE, read(PG_CLASS_OID_INDEX, 0));
    assertEquals(BtreeMetaPage.BTREE_VERSION, meta.version());
    assertEquals(3, meta.rootBlockNo());
    assertEquals(1, meta.treeLevel());
    byte[] root = read(PG_CLASS_OID_INDEX, 3);
    assertEquals(BtreePage.BTP_ROOT, BtreePage.flags(root) & (BtreePage.BTP_LEAF | BtreePage.BTP_ROOT));
    assertEquals(1, BtreePage.level(root));
    assertEquals(IndexPageKind.INNER, new BtreePage(checked, FILLFACTOR).count(root, 3).kind());
    assertEquals(IndexPageKind.META, new BtreePage(checked, FILLFACTOR).count(read(PG_CLASS_OID_INDEX, 0), 0).kind());
  }

  @Test
  void rejectsMetapageWithWrongMagic() throws IOException {
    byte[] page = read(PG_CLASS_OID_INDEX, 0);
    page[BtreeMetaPage.BT_META_OFFSET + BtreeMetaPage.BTM_MAGIC_OFFSET] ^= 1;
    IndexPageStats meta = unchecked.count(page, 0);
    assertEquals("btm_magic 0x053163, expected BTREE_MAGIC 0x053162: not a btree", meta.problem().reason());
    assertEquals(IndexPageKind.BAD, meta.kind()); // a bad page: no metapage figures are read from it
  }

  @Test
  void rejectsChangedPageByItsChecksum() throws IOException {
    byte[] page = read(PG_CLASS_OID_INDEX, 1);
    setFlags(page, BtreePage.flags(page) | BtreePage.BTP_HALF_DEAD);
    IndexPageStats stats = new BtreePage(checked, FILLFACTOR).count(page, 1);
    assertEquals(IndexPageKind.BAD, stats.kind());
    assertTrue(stats.problem().reason().startsWith("checksum mismatch"), stats.problem().reason());
    assertEquals(0, stats.freeSpace() + stats.heapItems());
    assertNull(stats.build());
  }

  @Test
  void rejectsPageWithHeapSizedSpecialSpace() throws IOException {
    byte[] page = read(PG_CLASS_OID_INDEX, 1);
    setUint16(page, PageHeader.PD_SPECIAL_OFFSET, PageHeader.BLCKSZ);
    assertEquals("pd_special 8192, expected 8176 (BLCKSZ - MAXALIGN(sizeof(BTPageOpaqueData))) on a btree page",
        unchecked.count(page, 1).problem().reason());
  }

  @Test
  void rejectsUnknownFlagsMetaFlagOffBlockZeroAndLeafAboveLevelZero() throws IOException {
    byte[] page = read(PG_CLASS_OID_INDEX, 1);
    setFlags(page, BtreePage.flags(page) | 0x0200);
    assertEquals("btpo_flags 0x0201 has bits outside 0x01ff", unchecked.count(page, 1).problem().reason());

    page = read(PG_CLASS_OID_INDEX, 1);
    setFlags(page, BtreePage.flags(page) | BtreePage.BTP_META);
    assertEquals("BTP_META is set on block 1; only block 0 is a metapage", unchecked.count(page, 1).problem().reason());

    page = read(PG_CLASS_OID_INDEX, 1);
    setUint16(page, PageHeader.special(page) + BtreePage.BTPO_LEVEL_OFFSET, 1);
    assertEquals("btpo_level 1 contradicts BTP_LEAF set", unchecked.count(page, 1).problem().reason());

    page = read(PG_CLASS_OID_INDEX, 1);
    setUint16(page, PageHeader.special(page) + BtreePage.BTPO_CYCLEID_OFFSET, 0xFF80);
    assertEquals("btpo_cycleid 0xff80 is above MAX_BT_CYCLE_ID 0xff7f", unchecked.count(page, 1).problem().reason());
  }

  @Test
  void classifiesInPgstatindexOrderDeletedThenHalfDeadThenLeaf() throws IOException {
    byte[] page = read(PG_CLASS_OID_INDEX, 1);
    setFlags(page, BtreePage.BTP_LEAF | BtreePage.BTP_HALF_DEAD);
    IndexPageStats halfDead = unchecked.count(page, 1);
    assertEquals(IndexPageKind.HALF_DEAD, halfDead.kind());
    assertNull(halfDead.build()); // no leaf: none of its entries is built again
    assertFalse(halfDead.fragment());

    setFlags(page, BtreePage.BTP_LEAF | BtreePage.BTP_HALF_DEAD | BtreePage.BTP_DELETED);
    assertEquals(IndexPageKind.DELETED, unchecked.count(page, 1).kind());

    // a deleted page's btpo_level may be an old xid (before PG 14): not held to BTP_LEAF
    setUint16(page, PageHeader.special(page) + BtreePage.BTPO_LEVEL_OFFSET, 4711);
    assertEquals(IndexPageKind.DELETED, unchecked.count(page, 1).kind());

    page = read(PG_CLASS_OID_INDEX, 1);
    setFlags(page, BtreePage.BTP_ROOT);
    setUint16(page, PageHeader.special(page) + BtreePage.BTPO_LEVEL_OFFSET, 1);
    assertEquals(IndexPageKind.INNER, unchecked.count(page, 1).kind());
  }

  @Test
  void countsALeafWhoseRightSiblingIsAtALowerBlockAsAFragment() throws IOException {
    byte[] page = read(PG_CLASS_OID_INDEX, 1);
    setFlags(page, BtreePage.BTP_LEAF);
    setUint16(page, PageHeader.special(page) + BtreePage.BTPO_NEXT_OFFSET, 3);
    assertTrue(unchecked.count(page, 7).fragment());
    assertFalse(unchecked.count(page, 2).fragment()); // next at a higher block: in order
    setUint16(page, PageHeader.special(page) + BtreePage.BTPO_NEXT_OFFSET, 0);
    assertFalse(unchecked.count(page, 7).fragment()); // P_NONE: rightmost
  }

  @Test
  void countsANewPageAsInternalAsPg15DoesButNotAsMetapage() {
    byte[] zeros = new byte[PageHeader.BLCKSZ];
    IndexPageStats atFive = new BtreePage(checked, FILLFACTOR).count(zeros, 5);
    assertEquals(IndexPageKind.NEW, atFive.kind()); // counted as internal by stats.IndexMeasure.INTERNAL_PAGES
    assertFalse(atFive.isBad());
    assertEquals("block 0 is all zero: the metapage was never written",
        new BtreePage(checked, FILLFACTOR).count(zeros, 0).problem().reason());
    assertTrue(new BtreePage(checked, FILLFACTOR).count(zeros, 0).isBad());
  }

  @Test
  void seededMutationsOfRealPagesNeverEscapeAndAlwaysFailTheChecksum() throws IOException {
    java.util.Random random = new java.util.Random(20261130);
    BtreePage withChecksums = new BtreePage(checked, FILLFACTOR);
    int flaggedWithout = 0;
    for (int i = 0; i < 3000; i++) {
      long block = random.nextInt(4); // the metapage, leaves and the root of pg_class_oid_index
      byte[] original = read(PG_CLASS_OID_INDEX, block);
      byte[] page = original.clone();
      int changes = 1 + random.nextInt(3);
      for (int c = 0; c < changes; c++) {
        // the header and special space most of the time: that is where the rules look
        int at = random.nextBoolean() ? random.nextInt(PageHeader.SIZE_OF_PAGE_HEADER_DATA + 48)
            : PageHeader.BLCKSZ - 1 - random.nextInt(32);
        page[at] = (byte) random.nextInt(256);
      }
      if (java.util.Arrays.equals(page, original)) {
        continue;
      }
      assertTrue(withChecksums.count(page, block).isBad(), "a changed page passed its checksum");
      IndexPageStats without = unchecked.count(page, block);
      if (without.isBad()) {
        flaggedWithout++;
      } else {
        assertTrue(without.freeSpace() >= 0 && without.freeSpace() <= BtreePage.MAX_AVAIL);
        if (block == BtreePage.BTREE_METAPAGE) {
          IndexMetapage.of(IndexAccessMethod.BTREE, page);
        }
      }
    }
    assertTrue(flaggedWithout > 500, "mutations caught without checksums: " + flaggedWithout);
  }

  private static void setFlags(byte[] page, int flags) {
    setUint16(page, PageHeader.special(page) + BtreePage.BTPO_FLAGS_OFFSET, flags);
  }

  private static void setUint16(byte[] page, int at, int value) {
    page[at] = (byte) value;
    page[at + 1] = (byte) (value >>> 8);
  }

  static byte[] read(String relpath, long block) throws IOException {
    byte[] page = new byte[PageHeader.BLCKSZ];
    try (RandomAccessFile file = new RandomAccessFile(SampleData.dataDir().resolve(relpath).toFile(), "r")) {
      file.seek(block * PageHeader.BLCKSZ);
      file.readFully(page);
    }
    return page;
  }
}
