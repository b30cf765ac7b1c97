package io.pgbloat.page;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.catalog.DataDirectory;
import io.pgbloat.catalog.Database;
import io.pgbloat.catalog.RelKind;
import io.pgbloat.catalog.Relation;
import io.pgbloat.figures.IndexFigures;
import io.pgbloat.io.read.SegmentedFile;
import io.pgbloat.io.store.HadoopFileStore;
import io.pgbloat.io.store.StoreSettings;
import io.pgbloat.scan.BtreeIndexScan;
import io.pgbloat.scan.BtreeIndexScanner;
import io.pgbloat.testing.SampleData;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The btree indexes of the sample data directory (written by a real PostgreSQL 15), found
 * through the offline catalog and decoded page by page: every page must be good and of a
 * kind, and the pages must agree with each other and with the metapage.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SampleBtreeIndexesTest {
  private final List<Relation> indexes = new ArrayList<>();
  private final List<BtreeIndexScan> scans = new ArrayList<>();
  private final List<Relation> heapRelations = new ArrayList<>();

  @BeforeAll
  void scanEveryIndex() throws IOException {
    try (HadoopFileStore files = HadoopFileStore.open(SampleData.dataDir().toString(),
        StoreSettings.DEFAULT.configuration())) {
      DataDirectory dir = DataDirectory.open(files);
      BtreeIndexScanner scanner = new BtreeIndexScanner(files, dir.control().segmentBlocks(), dir.pageRules());
      Set<String> seen = new HashSet<>();
      for (Database db : dir.databases()) {
        heapRelations.addAll(dir.relations(db));
        for (Relation index : dir.indexes(db).stream().filter(i -> i.am().equals("btree")).toList()) {
          if (seen.add(index.relpath())) { // shared catalogs' indexes come with every database
            indexes.add(index);
            scans.add(scanner.scan(index.relpath()));
          }
        }
      }
    }
  }

  @Test
  void findsUserSystemSharedAndToastIndexesOfKindI() {
    assertTrue(indexes.size() > 100, "btree indexes found: " + indexes.size());
    assertTrue(indexes.stream().allMatch(r -> r.kind() == RelKind.INDEX));
    assertTrue(has("pg_catalog", "pg_class_oid_index", false));
    assertTrue(has("pg_catalog", "pg_database_oid_index", true));
    assertTrue(indexes.stream().anyMatch(r -> r.schema().equals("pg_toast") && r.name().endsWith("_index")));
    assertTrue(indexes.stream().anyMatch(r -> r.schema().equals("public")), "the sample's own indexes");
    assertTrue(indexes.stream().filter(Relation::isShared).allMatch(r -> r.relpath().startsWith("global/")));
  }

  @Test
  void heapRelationListHasNoIndexes() {
    assertFalse(heapRelations.isEmpty());
    assertTrue(heapRelations.stream().allMatch(r -> "rtm".indexOf(r.kind().letter()) >= 0));
  }

  @Test
  void everyPageIsGoodAndEveryBlockIsClassified() {
    for (BtreeIndexScan scan : scans) {
      String where = scan.relpath();
      assertEquals(List.of(), scan.findings(), where);
      assertEquals(List.of(), scan.fileProblems(), where);
      assertNotNull(scan.meta(), where);
      assertEquals(BtreeMetaPage.BTREE_VERSION, scan.meta().version(), where);
      assertTrue(scan.sums().firstBlockRead(), where);
      IndexFigures f = scan.figures();
      // pgstatindex's index_size is (1 + leaf + internal + deleted + empty) pages
      assertEquals(scan.blocks() * PageHeader.BLCKSZ,
          (1 + f.leafPages() + f.internalPages() + f.deletedPages() + f.emptyPages()) * PageHeader.BLCKSZ, where);
      assertEquals(f.indexSize(), scan.blocks() * PageHeader.BLCKSZ, where);
    }
  }

  @Test
  void rootLevelAndLeavesAgreeWithTheMetapage() throws IOException {
    int multiLevel = 0;
    try (HadoopFileStore files = HadoopFileStore.open(SampleData.dataDir().toString(),
        StoreSettings.DEFAULT.configuration())) {
      for (BtreeIndexScan scan : scans) {
        String where = scan.relpath();
        IndexFigures f = scan.figures();
        if (f.rootBlockNo() == BtreePage.P_NONE) {
          // an index never inserted into: the metapage only, no root yet
          assertEquals(0, f.treeLevel(), where);
          assertEquals(0, f.leafPages(), where);
          assertTrue(Double.isNaN(f.avgLeafDensity()) && Double.isNaN(f.leafFragmentation()), where);
          continue;
        }
        byte[] root = read(files, scan, f.rootBlockNo());
        int flags = BtreePage.flags(root);
        assertTrue((flags & BtreePage.BTP_ROOT) != 0, where + " root flags " + flags);
        assertEquals(f.treeLevel(), BtreePage.level(root), where);
        assertEquals(f.treeLevel() == 0, (flags & BtreePage.BTP_LEAF) != 0, where);
        assertEquals(BtreePage.P_NONE, BtreePage.prev(root), where);
        assertEquals(BtreePage.P_NONE, BtreePage.next(root), where);
        assertTrue(f.leafPages() >= 1, where);
        assertTrue(f.treeLevel() == 0 ? f.internalPages() == 0 : f.internalPages() >= f.treeLevel(), where);
        assertTrue(f.avgLeafDensity() > 0 && f.avgLeafDensity() <= 100, where + " " + f);
        assertTrue(f.leafFragmentation() >= 0 && f.leafFragmentation() <= 100, where + " " + f);
        if (f.treeLevel() > 0) {
          multiLevel++;
        }
      }
    }
    assertTrue(multiLevel > 0, "the sample should have an index with internal pages");
  }

  private boolean has(String schema, String name, boolean shared) {
    return indexes.stream().anyMatch(r -> r.schema().equals(schema) && r.name().equals(name)
        && r.isShared() == shared);
  }

  private static byte[] read(HadoopFileStore files, BtreeIndexScan scan, long block) throws IOException {
    byte[] page = new byte[PageHeader.BLCKSZ];
    new SegmentedFile(scan.relpath(), Integer.MAX_VALUE, scan.blocks()).readBlocks(files, block, 1, page);
    return page;
  }
}
