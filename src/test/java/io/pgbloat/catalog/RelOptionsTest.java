package io.pgbloat.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.pgbloat.io.store.HadoopFileStore;
import io.pgbloat.testing.SampleData;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

class RelOptionsTest {
  /** What a table of {@code kind} with {@code reloptions} is written to: the option, then the table rule. */
  private static int fillfactor(char kind, List<String> reloptions) {
    return RelOptions.tableFillfactor(RelKind.of(kind), RelOptions.fillfactorOption(reloptions));
  }


  @Test
  void fillfactorComesFromReloptionsElseTheHeapDefault() {
    assertEquals(70, fillfactor('r', List.of("autovacuum_enabled=false", "fillfactor=70")));
    assertEquals(50, fillfactor('m', List.of("fillfactor=50")));
    assertEquals(100, fillfactor('r', List.of("autovacuum_enabled=false")));
    assertEquals(100, fillfactor('r', null));
  }

  @Test
  void toastTablesAreAlwaysFilledWhole() {
    assertEquals(100, fillfactor('t', List.of("fillfactor=70")));
  }

  @Test
  void rejectsAFillfactorPostgresWouldNotAccept() {
    assertEquals("reloption fillfactor 5 is outside 10..100",
        assertThrows(IllegalArgumentException.class, () -> fillfactor('r', List.of("fillfactor=5")))
            .getMessage());
    assertThrows(IllegalArgumentException.class, () -> fillfactor('r', List.of("fillfactor=x")));
  }

  @Test
  void deduplicateItemsIsOnUnlessSetOffAsParseBoolReadsIt() {
    assertEquals(true, RelOptions.deduplicateItemsOption(null));
    assertEquals(true, RelOptions.deduplicateItemsOption(List.of("fillfactor=70")));
    for (String off : List.of("off", "OFF", "of", "false", "f", "no", "n", "0")) {
      assertEquals(false, RelOptions.deduplicateItemsOption(List.of("deduplicate_items=" + off)), off);
    }
    for (String on : List.of("on", "true", "t", "yes", "1")) {
      assertEquals(true, RelOptions.deduplicateItemsOption(List.of("deduplicate_items=" + on)), on);
    }
    assertThrows(IllegalArgumentException.class, () -> RelOptions.deduplicateItemsOption(List.of("deduplicate_items=o")));
  }

  @Test
  void sampleCatalogGivesEventsItsFillfactorAndEveryOtherRelationTheDefault() throws IOException {
    // sample/make-sample.sh: CREATE TABLE events (...) WITH (fillfactor = 70)
    Map<String, Integer> fillfactors = new HashMap<>();
    try (HadoopFileStore files = HadoopFileStore.open(SampleData.dataDir().toString(), new Configuration())) {
      DataDirectory dir = DataDirectory.open(files);
      for (Database db : dir.databases()) {
        for (Relation r : dir.relations(db)) {
          fillfactors.put(r.qualifiedName(), r.fillfactor());
        }
      }
    }
    assertEquals(70, fillfactors.get("shop:public.events"));
    assertEquals(100, fillfactors.get("shop:public.orders"));
    long others = fillfactors.entrySet().stream()
        .filter(e -> !e.getKey().equals("shop:public.events") && e.getValue() != 100).count();
    assertEquals(0, others, fillfactors.toString());
  }
}
