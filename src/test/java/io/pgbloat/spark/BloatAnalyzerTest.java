package io.pgbloat.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.catalog.RelationFilter;
import io.pgbloat.io.read.IoSettings;
import io.pgbloat.rows.RelationReport;
import io.pgbloat.sample.SampleSize;
import io.pgbloat.stats.DeadFractionHistogram;
import io.pgbloat.testing.LocalSpark;
import io.pgbloat.testing.SampleData;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

/**
 * The analyzer on the shipped sample, on a real local Spark, as a program uses it: every
 * relation read has a histogram over exactly its good pages read, and the progress it reports
 * only grows and ends at the blocks planned.
 */
class BloatAnalyzerTest {
  @Test
  void histogramsCountThePagesReadAndProgressEndsAtPlanned() {
    SparkSession spark = LocalSpark.session("bloat-analyzer-test", 2);
    try {
      List<long[]> updates = new ArrayList<>();
      ScanProgress progress = (done, planned) -> {
        synchronized (updates) {
          updates.add(new long[] {done, planned});
        }
      };
      Analysis analysis = new BloatAnalyzer(spark, progress).analyze(new AnalyzeOptions(SampleData.dataDir().toString(),
          RelationFilter.all(), SampleSize.blocks(7), 3, IoSettings.defaults()));
      Map<String, DeadFractionHistogram> byName = analysis.histograms().stream()
          .collect(Collectors.toMap(h -> h.relation().qualifiedName(), Function.identity()));
      int withPages = 0;
      for (RelationReport row : analysis.rows()) {
        long good = row.figures().scannedBlocks() - row.figures().badPages();
        DeadFractionHistogram h = byName.get(row.relation().qualifiedName());
        assertEquals(good, h == null ? 0 : h.totalPages(), row.relation().qualifiedName());
        withPages += good > 0 ? 1 : 0;
      }
      assertTrue(withPages > 50, "relations read: " + withPages);
      long read = analysis.rows().stream().mapToLong(r -> r.figures().scannedBlocks()).sum();
      synchronized (updates) {
        long[] last = updates.get(updates.size() - 1);
        assertEquals(read, last[1], "planned blocks");
        assertEquals(last[1], last[0], "the last update is the end");
        for (int i = 1; i < updates.size(); i++) {
          assertTrue(updates.get(i)[0] >= updates.get(i - 1)[0] || updates.get(i)[0] == updates.get(i)[1],
              "progress goes forward");
        }
      }
    } finally {
      LocalSpark.stop(spark);
    }
  }
}
