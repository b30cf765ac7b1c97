package io.pgbloat.bench;

import io.pgbloat.testing.Csv;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Gathers what DifferentialSeedsTest left in each seed's directory ({@code summary.csv},
 * {@code checks.csv}, {@code differences.txt}) into the Markdown page bench/differential.sh
 * writes: exact differences by major and copy form, the sampled intervals' coverage by method
 * and figure, and reclaimable_bytes against real rebuilds by method, with every miss and its seed.
 *
 * <p>usage: {@code DifferentialTable SEEDS_DIR "COMMAND"} (COMMAND is named in the page's first lines)
 */
public final class DifferentialTable {
  /** The normal quantile of a two-sided 95 % interval: a half-width over it is the interval's standard error. */
  private static final double Z_95 = 1.959964;
  /** The band the Done-when of a sampled figure asks its 95 % intervals' coverage to fall in. */
  private static final double COVERAGE_LOW = 93;
  private static final double COVERAGE_HIGH = 97;
  /** The share of relations whose reclaimable_bytes must fall within the bound. */
  private static final double RECLAIMABLE_GOAL = 99;

  private final List<Map<String, String>> summaries = new ArrayList<>();
  private final List<Map<String, String>> checks = new ArrayList<>();
  private final Map<Long, String> differences = new TreeMap<>();

  private DifferentialTable() {
  }

  public static void main(String[] args) throws IOException {
    if (args.length != 2) {
      System.err.println("usage: DifferentialTable SEEDS_DIR COMMAND");
      System.exit(2);
    }
    DifferentialTable table = new DifferentialTable();
    try (Stream<Path> seeds = Files.list(Path.of(args[0]))) {
      seeds.filter(d -> Files.isRegularFile(d.resolve("summary.csv"))).forEach(table::gather);
    }
    System.out.print(table.page(args[1]));
  }

  private void gather(Path seedDir) {
    try {
      for (String line : Files.readAllLines(seedDir.resolve("summary.csv"))) {
        String[] f = line.split(",");
        if (f.length == 6) {
          summaries.add(Map.of("seed", f[0], "major", f[1], "form", f[2], "tables", f[3], "indexes", f[4],
              "differences", f[5]));
          if (Long.parseLong(f[5]) > 0 && Files.isRegularFile(seedDir.resolve("differences.txt"))) {
            differences.put(Long.parseLong(f[0]), Files.readAllLines(seedDir.resolve("differences.txt")).stream()
                .limit(3).reduce((a, b) -> a + "; " + b).orElse(""));
          }
        }
      }
      Path checksCsv = seedDir.resolve("checks.csv");
      if (Files.isRegularFile(checksCsv)) {
        checks.addAll(Csv.parseWithHeader(Files.readString(checksCsv)));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private String page(String command) {
    StringBuilder out = new StringBuilder();
    out.append("# Generated workloads against real servers: the last run\n\n");
    out.append(String.format(Locale.ROOT, "Made by `%s` on %s: %d seeds ran (a seed whose server could not start"
        + "%ndoes not run). Each seed draws its tables, loads and indexes"
        + " (`src/test/java/io/pgbloat/testing/workload/`);%nthe major and the copy form go round in turn."
        + " What is compared is in [differential.md](differential.md).%n%n",
        command, java.time.LocalDate.now(java.time.ZoneOffset.UTC), summaries.size()));
    exact(out);
    intervals(out);
    bounds(out, "reclaimable", "## What a rebuild gives back\n\nThe full scan's `reclaimable_bytes` against a real"
        + " `REINDEX INDEX` and `VACUUM FULL` of each\nworkload relation on a server over the data the tool read:"
        + " within max(5 % of the index, 2 pages)\nfor an index, max(2 % of the table, 1 block) for a table or its"
        + " TOAST table. A method the tool\ndoes not model prints an empty column (`not_estimated`).\n\n");
    bounds(out, "rewrite_disk", "## The disk a rewrite needs\n\nThe full scan's `--totals` `rewrite_needs_bytes`"
        + " of each table against its real `VACUUM FULL`:\nat least the new copies (table, TOAST table, indexes)"
        + " and the database directory's peak growth,\npolled every millisecond; at most the new copies; each up"
        + " to max(2 % of the total, a block a\npart), an index whose rebuild is not modelled allowed whole on"
        + " top.\n\n");
    return out.toString();
  }

  private void exact(StringBuilder out) {
    out.append("## Exact figures\n\nA full scan with `--indexes` against `pgstattuple()`, `pgstatindex()`,"
        + " `pgstathashindex()` and\n`pgstatginindex()` on the seed's server: every figure must be equal.\n\n");
    out.append("| major | copy form | seeds | tables compared | indexes compared | differences |\n");
    out.append("|---|---|---:|---:|---:|---:|\n");
    Map<String, long[]> cells = new TreeMap<>();
    for (Map<String, String> s : summaries) {
      long[] c = cells.computeIfAbsent(String.format(Locale.ROOT, "%02d|%s", Integer.parseInt(s.get("major")),
          s.get("form")), k -> new long[4]);
      c[0]++;
      c[1] += Long.parseLong(s.get("tables"));
      c[2] += Long.parseLong(s.get("indexes"));
      c[3] += Long.parseLong(s.get("differences"));
    }
    cells.forEach((k, c) -> out.append(String.format(Locale.ROOT, "| %d | %s | %d | %d | %d | %d |%n",
        Integer.parseInt(k.substring(0, 2)), k.substring(3), c[0], c[1], c[2], c[3])));
    out.append('\n');
    if (differences.isEmpty()) {
      out.append("No seed had a difference.\n\n");
    } else {
      out.append("Seeds with a difference (rebuild one with `bench/differential.sh --seed S`):\n\n");
      differences.forEach((seed, text) -> out.append("- seed ").append(seed).append(": ").append(text).append('\n'));
      out.append('\n');
    }
  }

  private void intervals(StringBuilder out) {
    out.append("## Sampled intervals\n\nEach seed's copy sampled twice, each run with a sampling seed of its own;"
        + " every 95 % interval\nof a relation read in part, against the full scan's exact figure. Coverage is"
        + " counted over the\nintervals of some width, with its own 95 % (Wilson) range; it is **bold** where"
        + " that range lies\nwholly outside 93-97 %. z is (estimate − exact) over the interval's half-width /"
        + " 1.96 (mean |z|\nof a normal is 0.80). An interval of no width is a sample that saw the figure"
        + " constant (no dead\ntuples in any block read, say); one that missed is a difference above. An"
        + " interval whose\nestimate is one of its ends is a sample whose blocks all showed the figure alike"
        + " (none deleted,\nall leaves): its width is the guard for what the blocks not read may hold, one way"
        + " only, and it\nholds by construction where the figure is that (0 deleted pages): those are counted"
        + " apart\n(one-sided: intervals, held) and not in the coverage.\n\nA figure that takes few values (a count"
        + " of pages, bytes in whole pages) can have its truth at an\nend of an interval, most often the end the"
        + " pages read prove (every page of a kind in the\nsample): no interval that holds can be shorter there,"
        + " so such a figure cannot cover 95 % exactly.\nIts coverage is therefore also counted with the ends"
        + " left out (at an end: intervals whose\ntruth is one of their ends; inside: the share held within"
        + " them): a figure is **bold** high only\nwhere even that share lies wholly above the band, and low"
        + " where the share held lies wholly below it.\n\n");
    out.append("| method | figure | intervals | held | coverage | its range | at an end | inside | mean z"
        + " | mean \\|z\\| | of no width | one-sided | held |\n");
    out.append("|---|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|\n");
    Map<String, double[]> cells = new TreeMap<>();
    for (Map<String, String> c : checks) {
      if (!"interval".equals(c.get("check"))) {
        continue;
      }
      double[] cell = cells.computeIfAbsent(c.get("method") + "|" + c.get("figure"), k -> new double[8]);
      double low = Double.parseDouble(c.get("low"));
      double high = Double.parseDouble(c.get("high"));
      double estimate = Double.parseDouble(c.get("tool"));
      double truth = Double.parseDouble(c.get("truth"));
      double halfWidth = (high - low) / 2;
      if (halfWidth <= 0) {
        cell[4]++;
        continue;
      }
      if (estimate == low || estimate == high) {
        cell[5]++;
        cell[6] += "held".equals(c.get("verdict")) ? 1 : 0;
        continue;
      }
      double z = (estimate - truth) / (halfWidth / Z_95);
      cell[0]++;
      cell[1] += "held".equals(c.get("verdict")) ? 1 : 0;
      cell[2] += z;
      cell[3] += Math.abs(z);
      cell[7] += truth == low || truth == high ? 1 : 0;
    }
    cells.forEach((k, c) -> {
      String[] key = k.split("\\|");
      out.append(String.format(Locale.ROOT, "| %s | %s | %d | %d | %s | %d | %s | %s | %d | %d | %d |%n", key[0],
          key[1], (long) c[0], (long) c[1], coverage(c[1], c[1] - c[7], c[0]), (long) c[7],
          c[0] > 0 ? String.format(Locale.ROOT, "%.1f %%", 100 * (c[1] - c[7]) / c[0]) : "",
          c[0] > 0 ? String.format(Locale.ROOT, "%+.2f | %.2f", c[2] / c[0], c[3] / c[0]) : " | ",
          (long) c[4], (long) c[5], (long) c[6]));
    });
    out.append('\n');
  }

  private static String whole(String bytes) {
    return Long.toString(Math.round(Double.parseDouble(bytes)));
  }

  /**
   * The share held and its Wilson 95 % range, bold where that range lies wholly below the band
   * or where the range of the share held inside the ends lies wholly above it.
   */
  private static String coverage(double held, double heldInside, double n) {
    if (n == 0) {
      return " | ";
    }
    double[] range = wilson(held, n);
    String shown = String.format(Locale.ROOT, "%.1f %%", 100 * held / n);
    if (range[1] < COVERAGE_LOW || wilson(heldInside, n)[0] > COVERAGE_HIGH) {
      shown = "**" + shown + "**";
    }
    return shown + String.format(Locale.ROOT, " | %.1f-%.1f %%", range[0], range[1]);
  }

  /** Wilson's 95 % range, in percent, of a share of {@code held} in {@code n}. */
  private static double[] wilson(double held, double n) {
    double p = held / n;
    double z2 = Z_95 * Z_95;
    double centre = (p + z2 / (2 * n)) / (1 + z2 / n);
    double half = Z_95 * Math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n);
    return new double[] {100 * (centre - half), 100 * (centre + half)};
  }

  /** The checks of one kind against a bound ({@code reclaimable}, {@code rewrite_disk}) by method, and their misses. */
  private void bounds(StringBuilder out, String check, String section) {
    out.append(section);
    out.append("| method | relations | within the bound | share | not estimated | misses |\n");
    out.append("|---|---:|---:|---:|---:|---:|\n");
    Map<String, long[]> cells = new TreeMap<>();
    List<Map<String, String>> misses = new ArrayList<>();
    for (Map<String, String> c : checks) {
      if (!check.equals(c.get("check"))) {
        continue;
      }
      long[] cell = cells.computeIfAbsent(c.get("method"), k -> new long[4]);
      cell[0]++;
      switch (c.get("verdict")) {
        case "held" -> cell[1]++;
        case "not_estimated" -> cell[2]++;
        default -> {
          cell[3]++;
          misses.add(c);
        }
      }
    }
    cells.forEach((method, c) -> {
      long estimated = c[0] - c[2];
      String share = estimated == 0 ? "" : String.format(Locale.ROOT, "%.1f %%", 100.0 * c[1] / estimated);
      if (estimated > 0 && 100.0 * c[1] / estimated < RECLAIMABLE_GOAL) {
        share = "**" + share + "**";
      }
      out.append(String.format(Locale.ROOT, "| %s | %d | %d | %s | %d | %d |%n", method, c[0], c[1], share, c[2],
          c[3]));
    });
    out.append('\n');
    if (misses.isEmpty()) {
      out.append("No relation missed its bound.\n\n");
      return;
    }
    out.append("Misses (rebuild a seed with `bench/differential.sh --seed S`):\n\n");
    out.append("| seed | major | form | relation | method | real | tool | bound |\n");
    out.append("|---:|---:|---|---|---|---:|---:|---|\n");
    misses.sort(Comparator.comparingLong(c -> Long.parseLong(c.get("seed"))));
    for (Map<String, String> c : misses) {
      out.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | [%s, %s] |%n", c.get("seed"),
          c.get("major"), c.get("form"), c.get("relation"), c.get("method"), c.get("truth"), c.get("tool"),
          whole(c.get("low")), whole(c.get("high"))));
    }
    out.append('\n');
  }
}
