package io.pgbloat.testing.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Draws one table's shape, load and indexes. */
final class TableDraw {
  private static final List<String> METHODS = List.of("btree", "hash", "gin", "gist", "spgist", "brin");
  private static final List<String> PARTITIONINGS = List.of("range", "list", "hash", "nested");
  private static final List<String> VACUUMS = List.of("none", "vacuum", "vacuum-notruncate", "vacuum-truncate");

  private TableDraw() {
  }

  static TablePlan draw(Random r, String name) {
    int rows = 500 + r.nextInt(15_000);
    int width = 4 + r.nextInt(r.nextBoolean() ? 40 : 300);
    int nulls = r.nextInt(3) == 0 ? r.nextInt(60) : 0;
    boolean toast = r.nextInt(3) == 0;
    int fillfactor = r.nextInt(3) == 0 ? 50 + r.nextInt(51) : 100;
    String partitioning = r.nextInt(4) == 0 ? PARTITIONINGS.get(r.nextInt(PARTITIONINGS.size())) : "";
    boolean unlogged = partitioning.isEmpty() && r.nextInt(5) == 0;
    int hot = r.nextInt(3) == 0 ? 0 : r.nextInt(40);
    int cold = r.nextInt(3) == 0 ? 0 : r.nextInt(30);
    int deletes = r.nextInt(4) == 0 ? 0 : r.nextInt(70);
    String vacuum = VACUUMS.get(r.nextInt(VACUUMS.size()));
    boolean analyze = r.nextBoolean();
    boolean reinsert = r.nextInt(3) == 0;
    List<IndexPlan> indexes = new ArrayList<>();
    int count = 1 + r.nextInt(4);
    for (int i = 0; i < count; i++) {
      String method = METHODS.get(r.nextInt(METHODS.size()));
      indexes.add(index(r, name + "_" + method + i, method));
    }
    return new TablePlan(name, rows, width, nulls, toast, fillfactor, unlogged, partitioning, hot, cold, deletes,
        vacuum, analyze, reinsert, List.copyOf(indexes));
  }

  private static IndexPlan index(Random r, String name, String method) {
    List<String> options = new ArrayList<>();
    String key = switch (method) {
      case "btree" -> List.of("k", "t", "k, id", "id").get(r.nextInt(4));
      case "hash" -> r.nextBoolean() ? "k" : "t";
      case "gin" -> "arr";
      case "gist", "spgist" -> "p";
      default -> r.nextBoolean() ? "id" : "k";
    };
    switch (method) {
      case "btree" -> {
        maybe(r, options, "fillfactor = " + (10 + r.nextInt(91)));
        maybe(r, options, "deduplicate_items = " + (r.nextBoolean() ? "on" : "off"));
      }
      case "hash", "spgist" -> maybe(r, options, "fillfactor = " + (10 + r.nextInt(91)));
      case "gin" -> {
        maybe(r, options, "fastupdate = " + (r.nextBoolean() ? "on" : "off"));
        maybe(r, options, "gin_pending_list_limit = " + (64 + r.nextInt(1000)));
      }
      case "gist" -> {
        maybe(r, options, "fillfactor = " + (10 + r.nextInt(91)));
        maybe(r, options, "buffering = " + List.of("auto", "on", "off").get(r.nextInt(3)));
      }
      default -> maybe(r, options, "pages_per_range = " + (1 + r.nextInt(64)));
    }
    return new IndexPlan(name, method, key, String.join(", ", options));
  }

  private static void maybe(Random r, List<String> options, String option) {
    if (r.nextBoolean()) {
      options.add(option);
    }
  }
}
