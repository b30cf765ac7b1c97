package io.pgbloat.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.advice.ActionThresholds;
import io.pgbloat.catalog.RelKind;
import io.pgbloat.catalog.Relation;
import io.pgbloat.catalog.RelationFilter;
import io.pgbloat.error.NotADataDirectoryException;
import io.pgbloat.io.read.BlockList;
import io.pgbloat.io.read.IoSettings;
import io.pgbloat.sample.RelationSample;
import io.pgbloat.sample.SamplePlanner;
import io.pgbloat.sample.SampleSize;
import io.pgbloat.sample.Stratum;
import io.pgbloat.testing.SampleData;
import io.pgbloat.testing.VersionSample;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The planner on the shipped samples, with no Spark (it runs before Spark starts): which
 * relations a filter selects, which blocks are read of each (a table at most as large as its
 * sample whole, a larger one by its seed within the strata of its visibility map, an index's
 * metapage and a sample of the rest), the parts a total or a rebuild reads unreported, and a
 * wrong path failing in one line before any session is asked for.
 */
class AnalysisPlannerTest {
  private static final long SEED = 11;
  /** The sample's size in blocks: the shop tables are of 0 to 90 blocks. */
  private static final int N = 20;

  private static AnalyzeOptions options(RelationFilter filter, SampleSize size) {
    return new AnalyzeOptions(SampleData.dataDir().toString(), filter, size, SEED, IoSettings.defaults());
  }

  private static RelationFilter shop(String pattern, Set<RelKind> kinds, long minBytes) {
    return new RelationFilter(List.of("shop"), List.of(pattern), kinds, minBytes);
  }

  private static List<String> names(List<Relation> relations) {
    return relations.stream().map(Relation::qualifiedName).toList();
  }

  /** A truth row's name as {@link Relation#qualifiedName} gives it, and its relkind. */
  private static String nameAndKind(Map<String, String> row) {
    return (row.get("database").isEmpty() ? "" : row.get("database") + ":") + row.get("schema") + "."
        + row.get("relname") + " " + row.get("relkind");
  }

  private static List<String> truthInReportOrder(List<Map<String, String>> truth) {
    return truth.stream().sorted(Comparator.<Map<String, String>, String>comparing(r -> r.get("database"))
        .thenComparing(r -> r.get("schema")).thenComparing(r -> r.get("relname")))
        .map(AnalysisPlannerTest::nameAndKind).toList();
  }

  private static int indexOf(AnalysisPlan plan, String qualifiedName) {
    int i = names(plan.relations()).indexOf(qualifiedName);
    assertTrue(i >= 0, qualifiedName + " in the plan: " + names(plan.relations()));
    return i;
  }

  private static Set<Long> blocksOf(BlockList list) {
    Set<Long> blocks = new HashSet<>();
    list.forEach(blocks::add);
    return blocks;
  }

  @Test
  void everyRelationWithHeapStorageIsSelectedOnceInReportOrder() {
    AnalysisPlan plan = AnalysisPlanner.plan(options(RelationFilter.all(), SampleSize.blocks(N)));
    List<String> planned = plan.relations().stream().map(r -> r.qualifiedName() + " " + r.kind()).toList();
    assertEquals(truthInReportOrder(SampleData.pgstattuple()), planned, "pgstattuple's relations, shared ones once");
    assertEquals(Set.of(), plan.unreported());
    assertEquals(List.of(), plan.findings());
    assertEquals(plan.relations().size(), plan.files().size());
    assertEquals(plan.relations().size(), plan.samples().size());
    assertEquals(plan.relations().size(), plan.allVisible().size());
  }

  @Test
  void theFilterSelectsByDatabasePatternKindAndSize() {
    SampleSize size = SampleSize.blocks(N);
    assertEquals(List.of("shop:public.order_totals", "shop:public.orders"),
        names(AnalysisPlanner.plan(options(shop("public.order*", Set.of(), 0), size)).relations()));
    assertEquals(List.of("shop:public.order_totals"), names(AnalysisPlanner.plan(
        options(shop("public.order*", RelKind.reportedOf("m"), 0), size)).relations()));
    assertEquals(List.of("shop:public.events", "shop:public.orders"), names(AnalysisPlanner.plan(
        options(shop("public.*", Set.of(), 80L * 8192), size)).relations()), "80 blocks at least");
    assertEquals(List.of("shop:archive.orders_2025", "shop:public.orders"), names(AnalysisPlanner.plan(
        options(shop("orders*", RelKind.reportedOf("r"), 0), size)).relations()), "a pattern without a dot: any schema");
    // a shared catalog, which every database lists, once; none when a database is named
    assertEquals(List.of("pg_catalog.pg_database"), names(AnalysisPlanner.plan(options(
        new RelationFilter(List.of(), List.of("pg_catalog.pg_database")), size)).relations()));
    assertThrows(NoMatchException.class, () -> AnalysisPlanner.plan(options(shop("pg_catalog.pg_database", Set.of(),
        0), size)));
  }

  @Test
  void aTableOfAtMostNBlocksIsReadWholeALargerOneSampledWithItsSeedsBlocks() {
    AnalyzeOptions options = options(shop("public.*", Set.of(), 0), SampleSize.blocks(N));
    AnalysisPlan plan = AnalysisPlanner.plan(options);
    int sampled = 0;
    for (int i = 0; i < plan.relations().size(); i++) {
      Relation r = plan.relations().get(i);
      long blocks = plan.files().get(i).blocks();
      RelationSample sample = plan.samples().get(i);
      if (blocks <= N) {
        assertEquals(RelationSample.everything(blocks), sample, r.qualifiedName());
        assertEquals(BlockList.of(), plan.allVisible().get(i), r.qualifiedName() + ": its visibility map unread");
      } else {
        sampled++;
        assertFalse(sample.isComplete(), r.qualifiedName());
        assertEquals(SamplePlanner.plan(blocks, plan.allVisible().get(i), N, options.seedFor(r)), sample,
            r.qualifiedName());
      }
    }
    assertEquals(5, sampled, "audit_log, customers, events, order_totals, orders");
    int orders = indexOf(plan, "shop:public.orders");
    assertEquals(plan.samples().get(orders), AnalysisPlanner.plan(options).samples().get(orders), "the same seed");
    AnalyzeOptions reseeded = new AnalyzeOptions(options.dataDir(), options.filter(), options.sampleSize(), SEED + 1,
        options.io());
    assertNotEquals(plan.samples().get(orders).sample(), AnalysisPlanner.plan(reseeded).samples().get(orders).sample());
  }

  @Test
  void aSampledTablesStrataAreItsLastBlockAndItsVisibilityMapsTwoSides() {
    AnalysisPlan plan = AnalysisPlanner.plan(options(shop("public.*", Set.of(), 0), SampleSize.blocks(N)));
    int withBothSides = 0;
    for (int i = 0; i < plan.relations().size(); i++) {
      RelationSample sample = plan.samples().get(i);
      if (sample.isComplete()) {
        continue;
      }
      long last = sample.blocks() - 1;
      Set<Long> visible = blocksOf(plan.allVisible().get(i));
      long visibleBelowLast = visible.stream().filter(b -> b < last).count();
      assertEquals(List.of(1L, visibleBelowLast, last - visibleBelowLast), List.of(
          sample.population()[Stratum.TAKE_ALL.ordinal()], sample.population()[Stratum.ALL_VISIBLE.ordinal()],
          sample.population()[Stratum.OTHER.ordinal()]), plan.relations().get(i).qualifiedName());
      withBothSides += visibleBelowLast > 0 && visibleBelowLast < last ? 1 : 0;
      List<Long> blocks = new ArrayList<>();
      sample.sample().forEach(blocks::add);
      assertTrue(blocks.contains(last), "the last block is always read");
      for (int p = 0; p < blocks.size(); p++) {
        long b = blocks.get(p);
        Stratum expected = b == last ? Stratum.TAKE_ALL : visible.contains(b) ? Stratum.ALL_VISIBLE : Stratum.OTHER;
        assertEquals(expected, sample.stratumAt(p), plan.relations().get(i).qualifiedName() + " block " + b);
      }
    }
    assertTrue(withBothSides > 0, "a table with all-visible blocks and others (audit_log, customers)");
  }

  @Test
  void anIndexPlanReadsTheMetapageAndASampleOfTheRestAndItsBtreesTablesUnreported() {
    AnalyzeOptions options = new AnalyzeOptions(SampleData.dataDir().toString(),
        shop("public.*", RelKind.reportedOf("i"), 0), SampleSize.blocks(N), SEED, IoSettings.defaults(), true, false,
        ActionThresholds.DEFAULT);
    AnalysisPlan plan = AnalysisPlanner.plan(options);
    IndexPlan indexes = plan.indexes();
    assertEquals(List.of("shop:public.customers_pkey", "shop:public.documents_pkey", "shop:public.events_pkey",
        "shop:public.orders_pkey"), names(indexes.relations()));
    assertEquals(Set.of(), indexes.unreported());
    for (int i = 0; i < indexes.relations().size(); i++) {
      Relation index = indexes.relations().get(i);
      long blocks = indexes.files().get(i).blocks();
      BlockList sample = indexes.samples().get(i);
      assertEquals(0, sample.runStart(0), index.qualifiedName() + ": the metapage");
      BlockList whole = indexes.wholeBlocks().get(i).blocks();
      assertEquals(blocks <= N + 1 ? BlockList.range(0, blocks)
          : SampleDrawer.union(SampleDrawer.indexSample(blocks, N, options.seedFor(index)), whole), sample,
          index.qualifiedName());
      if (blocks > N + 1) {
        // its rightmost path: the root and, below it, the leaf that ends the leaf level
        assertTrue(whole.size() >= 2 && whole.runStart(0) > 0, index.qualifiedName() + ": " + whole);
      } else {
        assertEquals(BlockList.of(), whole, index.qualifiedName() + ": read whole, no part apart");
      }
    }
    java.util.Set<Long> drawn = new java.util.HashSet<>();
    SampleDrawer.indexSample(indexes.files().get(3).blocks(), N, options.seedFor(indexes.relations().get(3)))
        .forEach(drawn::add);
    long[] missed = {0};
    indexes.wholeBlocks().get(3).blocks().forEach(b -> missed[0] += drawn.contains(b) ? 0 : 1);
    assertEquals(N + 1 + missed[0], indexes.samples().get(3).size(),
        "orders_pkey (40 blocks): the metapage, " + N + " and what of its rightmost path the draw missed");
    // only indexes are reported, but a btree's rebuild needs its table's live tuples
    assertEquals(List.of("shop:public.customers", "shop:public.documents", "shop:public.events",
        "shop:public.orders"), names(plan.relations()).stream().sorted().toList());
    assertEquals(Set.of(0, 1, 2, 3), plan.unreported());
  }

  @Test
  void aTotalReadsTheTablesToastTableAndTheIndexesOfBothUnreported() {
    AnalyzeOptions options = new AnalyzeOptions(SampleData.dataDir().toString(),
        shop("public.documents", Set.of(), 0), SampleSize.blocks(N), SEED, IoSettings.defaults(), false, true,
        ActionThresholds.DEFAULT);
    AnalysisPlan plan = AnalysisPlanner.plan(options);
    assertEquals(List.of("shop:pg_toast.pg_toast_16514", "shop:public.documents"), names(plan.relations()));
    assertEquals(Set.of(0), plan.unreported(), "the TOAST table is a part of the total");
    assertEquals(List.of("shop:pg_toast.pg_toast_16514_index", "shop:public.documents_pkey"),
        names(plan.indexes().relations()));
    assertEquals(Set.of(0, 1), plan.indexes().unreported(), "no index report was asked for");
  }

  @Test
  void aWrongPathFailsInOneLineBeforeSparkIsAskedFor(@TempDir Path empty) {
    Path missing = empty.resolve("nosuch");
    for (Path wrong : List.of(missing, empty)) {
      AtomicBoolean asked = new AtomicBoolean();
      NotADataDirectoryException e = assertThrows(NotADataDirectoryException.class,
          () -> BloatAnalyzer.analyzeStandalone(new AnalyzeOptions(wrong.toString(), RelationFilter.all(),
              SampleSize.blocks(N), SEED, IoSettings.defaults()), () -> {
                asked.set(true);
                throw new AssertionError("a session was asked for");
              }));
      assertTrue(e.getMessage().startsWith("Cannot read data directory " + wrong), e.getMessage());
      assertFalse(e.getMessage().contains("\n"), e.getMessage());
      assertFalse(asked.get(), wrong + ": no session asked for");
    }
    assertTrue(assertThrows(NotADataDirectoryException.class, () -> AnalysisPlanner.open(new AnalyzeOptions(
        empty.toString(), RelationFilter.all(), SampleSize.blocks(N), SEED, IoSettings.defaults())))
        .getMessage().contains("it has no PG_VERSION file"));
  }

  @Test
  void aFilterMatchingNothingFailsInOneLine() {
    NoMatchException database = assertThrows(NoMatchException.class, () -> AnalysisPlanner.plan(options(
        new RelationFilter(List.of("shop", "nosuch"), List.of()), SampleSize.blocks(N))));
    assertEquals("Cannot analyze database nosuch: no such database in this data directory; its databases are "
        + "postgres, shop", database.getMessage());
    NoMatchException table = assertThrows(NoMatchException.class, () -> AnalysisPlanner.plan(options(
        shop("public.nosuch*", Set.of(), 0), SampleSize.blocks(N))));
    assertEquals("Cannot analyze: no table matches public.nosuch*; patterns are schema.name with * for any "
        + "characters, e.g. public.* or *.orders", table.getMessage());
  }

  static List<Integer> majors() {
    return VersionSample.MAJORS;
  }

  /** Each version's catalog, in its own layout and its database's encoding, lists what its server did. */
  @ParameterizedTest(name = "PostgreSQL {0}")
  @MethodSource("majors")
  void eachVersionsRelationsAndIndexesAreThoseItsServerListed(int major) {
    VersionSample sample = new VersionSample(major);
    AnalysisPlan plan = AnalysisPlanner.plan(new AnalyzeOptions(sample.dataDir().toString(), RelationFilter.all(),
        SampleSize.blocks(N), SEED, IoSettings.defaults(), true, false, ActionThresholds.DEFAULT));
    assertEquals(truthInReportOrder(sample.pgstattuple()),
        plan.relations().stream().map(r -> r.qualifiedName() + " " + r.kind()).toList());
    List<String> btrees = IntStream.range(0, plan.indexes().relations().size())
        .filter(i -> plan.indexes().relations().get(i).am().equals("btree"))
        .mapToObj(i -> plan.indexes().relations().get(i).qualifiedName() + " "
            + plan.indexes().relations().get(i).relpath()).toList();
    assertEquals(sample.pgstatindex().stream().map(r -> (r.get("database").isEmpty() ? "" : r.get("database") + ":")
        + r.get("schema") + "." + r.get("relname") + " " + r.get("relpath")).sorted().toList(),
        btrees.stream().sorted().toList(), "pgstatindex's btree indexes");
    assertEquals(List.of(), plan.findings());
  }
}
