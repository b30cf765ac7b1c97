package io.pgbloat.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.pgbloat.page.HeapPageStats;
import io.pgbloat.page.IndexAccessMethod;
import io.pgbloat.page.IndexPageKind;
import io.pgbloat.page.IndexPageStats;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Sums written as longs, for a run's state, read back equal, and merge as the sums they were. */
class SumsAsLongsTest {
  @Test
  void tableSumsReadBackEqualAndMergeAsBefore() {
    PageValues table = PageValues.load("/pages/groundtruth-gt.csv.gz").get(0);
    List<HeapPageStats> pages = table.pages();
    PartialSums head = new PartialSums();
    PartialSums tail = new PartialSums();
    for (int i = 0; i < pages.size(); i++) {
      (i < pages.size() / 2 ? head : tail).add(pages.get(i));
    }
    head.add(HeapPageStats.bad(new io.pgbloat.page.PageProblem(0, "damaged")));
    PartialSums back = PartialSums.fromLongs(head.toLongs());
    assertEquals(head, back);
    assertEquals(head.merge(tail), back.merge(PartialSums.fromLongs(tail.toLongs())));
    assertEquals(new PartialSums(), PartialSums.fromLongs(new PartialSums().toLongs()), "no page: extremes kept unset");
    assertThrows(IllegalArgumentException.class, () -> PartialSums.fromLongs(Arrays.copyOf(head.toLongs(), 5)));
  }

  @Test
  void indexSumsReadBackEqual() {
    IndexPageSums sums = new IndexPageSums(IndexAccessMethod.BTREE);
    sums.add(new IndexPageStats(0, IndexPageKind.META, 0, 0, 0, 0, 0, 0, 0, 0, 0, false, null, null), true);
    sums.add(new IndexPageStats(1, IndexPageKind.LEAF, 40, 800, 2, 40, 7000, 0, 40, 0, 0, true, null, null), false);
    sums.add(new IndexPageStats(2, IndexPageKind.LEAF, 10, 200, 0, 0, 7900, 0, 10, 0, 0, false, null, null), true);
    sums.add(IndexPageStats.bad(3, "damaged"), false);
    IndexPageSums back = IndexPageSums.fromLongs(IndexAccessMethod.BTREE, sums.toLongs());
    assertEquals(sums, back);
    assertEquals(sums.read(IndexMeasure.values()[0]), back.read(IndexMeasure.values()[0]));
    assertThrows(IllegalArgumentException.class,
        () -> IndexPageSums.fromLongs(IndexAccessMethod.BTREE, Arrays.copyOf(sums.toLongs(), 9)));
  }
}
