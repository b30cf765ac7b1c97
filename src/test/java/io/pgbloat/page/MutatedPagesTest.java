package io.pgbloat.page;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.io.store.HadoopFileStore;
import io.pgbloat.io.store.StoreSettings;
import io.pgbloat.testing.SampleData;
import io.pgbloat.xact.ClusterTransactions;
import io.pgbloat.xact.DirtySnapshot;
import io.pgbloat.xact.TransactionStatus;
import java.io.RandomAccessFile;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A seeded fuzz of the decoder: 12000 pages mutated from real PostgreSQL pages (bit flips,
 * random bytes, zeroed ranges, a torn tail, swapped halves, line pointers aimed out of range)
 * go through it. No exception may escape; every page is either flagged or decodes to
 * figures within a page's bounds; and with checksums on, every page that changed is flagged.
 */
class MutatedPagesTest {
  static final int MUTATIONS = 12000;

  @Test
  void noMutationEscapesAndTheChecksumCatchesEveryOne() throws Exception {
    List<byte[]> originals = new ArrayList<>();
    List<Long> blocks = new ArrayList<>();
    for (Map<String, String> r : SampleData.pgstattuple()) {
      if (r.get("database").equals("shop") && r.get("schema").equals("public") && Long.parseLong(r.get("blocks")) > 0) {
        try (RandomAccessFile f = new RandomAccessFile(SampleData.dataDir().resolve(r.get("relpath")).toFile(), "r")) {
          for (long b = 0; b < Math.min(8, Long.parseLong(r.get("blocks"))); b++) {
            byte[] page = new byte[PageHeader.BLCKSZ];
            f.seek(b * PageHeader.BLCKSZ);
            f.readFully(page);
            originals.add(page);
            blocks.add(b);
          }
        }
      }
    }
    assertTrue(originals.size() >= 30, "real pages to mutate: " + originals.size());
    try (HadoopFileStore files = HadoopFileStore.open(SampleData.dataDir().toString(), StoreSettings.DEFAULT.configuration())) {
      // the sample's own transactions decide visibility, so random xids meet the real commit log
      TransactionStatus status = new TransactionStatus(files, new ClusterTransactions(3, 1, 1, 0, new int[0]));
      HeapPage checked = new HeapPage(new PageRules(true, FreeSpaceRule.ROOM_FOR_A_TUPLE), new DirtySnapshot(status));
      HeapPage unchecked = new HeapPage(new PageRules(false, FreeSpaceRule.ROOM_FOR_A_TUPLE), new DirtySnapshot(status));
      Random random = new Random(20261130);
      int flaggedWithoutChecksum = 0;
      for (int i = 0; i < MUTATIONS; i++) {
        int which = random.nextInt(originals.size());
        byte[] page = originals.get(which).clone();
        long block = blocks.get(which);
        String how = mutate(page, random);
        if (java.util.Arrays.equals(page, originals.get(which))) {
          continue; // the mutation happened to change nothing
        }
        HeapPageStats withChecksum = checked.count(page, block);
        assertTrue(withChecksum.isBad(), "a changed page passed its checksum: " + how);
        HeapPageStats without = unchecked.count(page, block);
        if (without.isBad()) {
          flaggedWithoutChecksum++;
        } else {
          assertTrue(without.lpNormal() <= HeapPage.MAX_HEAP_TUPLES_PER_PAGE, how);
          assertEquals(without.lpNormal(), without.tupleCount() + without.deadTupleCount(), how);
          assertTrue(without.tupleLen() + without.deadTupleLen() <= PageHeader.BLCKSZ, how);
          assertTrue(without.freeSpace() >= 0 && without.freeSpace() <= PageHeader.BLCKSZ, how);
        }
      }
      System.out.println(MUTATIONS + " mutated pages: all caught by the checksum; without checksums "
          + flaggedWithoutChecksum + " flagged by the sanity rules, the rest decoded within bounds");
    }
  }

  /** One seeded mutation; returns what it did, for messages. */
  private static String mutate(byte[] page, Random random) {
    switch (random.nextInt(6)) {
      case 0 -> {
        int bit = random.nextInt(PageHeader.BLCKSZ * 8);
        page[bit / 8] ^= (byte) (1 << (bit % 8));
        return "bit flip at bit " + bit;
      }
      case 1 -> {
        int at = random.nextInt(PageHeader.BLCKSZ - 64);
        int n = 1 + random.nextInt(64);
        for (int k = 0; k < n; k++) {
          page[at + k] = (byte) random.nextInt(256);
        }
        return n + " random bytes at " + at;
      }
      case 2 -> {
        int at = random.nextInt(PageHeader.BLCKSZ);
        int n = 1 + random.nextInt(PageHeader.BLCKSZ - at);
        java.util.Arrays.fill(page, at, at + n, (byte) 0);
        return n + " bytes zeroed at " + at;
      }
      case 3 -> {
        int cut = 512 * (1 + random.nextInt(15)); // a torn write: the tail from an older page
        java.util.Arrays.fill(page, cut, PageHeader.BLCKSZ, (byte) 0);
        return "torn at " + cut;
      }
      case 4 -> {
        byte[] half = java.util.Arrays.copyOfRange(page, 0, PageHeader.BLCKSZ / 2);
        System.arraycopy(page, PageHeader.BLCKSZ / 2, page, 0, PageHeader.BLCKSZ / 2);
        System.arraycopy(half, 0, page, PageHeader.BLCKSZ / 2, PageHeader.BLCKSZ / 2);
        return "halves swapped";
      }
      default -> {
        int items = Math.max(1, PageHeader.maxOffsetNumber(page));
        int off = 1 + random.nextInt(Math.min(items, HeapPage.MAX_HEAP_TUPLES_PER_PAGE));
        int word = random.nextInt(0x7FFF) | ItemId.LP_NORMAL << 15 | random.nextInt(0x7FFF) << 17;
        int at = PageHeader.SIZE_OF_PAGE_HEADER_DATA + (off - 1) * ItemId.SIZE_OF_ITEM_ID_DATA;
        page[at] = (byte) word;
        page[at + 1] = (byte) (word >> 8);
        page[at + 2] = (byte) (word >> 16);
        page[at + 3] = (byte) (word >> 24);
        return "item " + off + " aimed at " + ItemId.offset(word) + " length " + ItemId.length(word);
      }
    }
  }
}
