package io.pgbloat.report;

import io.pgbloat.advice.ByteSize;
import io.pgbloat.figures.RelationFigures;
import io.pgbloat.rows.RelationReport;
import io.pgbloat.stats.Estimate;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * The report for a terminal: aligned columns, the most wasteful tables (dead plus free
 * bytes) first, sizes in the units of pg_size_pretty, names with control characters shown
 * escaped so that a hostile name cannot move the cursor or forge a line.
 */
public final class TableReport implements ReportWriter<RelationReport> {

  /** A column of the terminal's table: its title, whether it is aligned right (a figure), its cell. */
  private record TerminalColumn(String title, boolean right, Function<RelationReport, String> value) {}

  private static final List<TerminalColumn> COLUMNS = List.of(
      new TerminalColumn("database", false, r -> visible(r.relation().isShared() ? "(shared)" : r.relation().database())),
      new TerminalColumn("relation", false, r -> visible(RankedRelation.relationLabel(r.relation()))),
      new TerminalColumn("kind", false, r -> String.valueOf(r.relation().kind())),
      new TerminalColumn("size", true, r -> size(r.figures().tableLen())),
      new TerminalColumn("read", true, r -> readShare(r.figures())),
      new TerminalColumn("live tuples", true, r -> atLeast(r, count(r.figures().tupleCount()))),
      new TerminalColumn("dead tuples", true, r -> atLeast(r, count(r.figures().deadTupleCount()))),
      new TerminalColumn("dead", true, r -> atLeast(r, bytes(r.figures().deadTupleLen().value()))),
      new TerminalColumn("dead %", true, r -> atLeast(r, percentWithMargin(r.figures().deadTuplePercent()))),
      new TerminalColumn("free", true, r -> atLeast(r, bytes(r.figures().freeSpace().value()))),
      new TerminalColumn("free %", true, r -> atLeast(r, percentWithMargin(r.figures().freePercent()))),
      new TerminalColumn("wasted", true, r -> atLeast(r, bytes(r.wastedBytes()))),
      new TerminalColumn("reclaimable", true, r -> sizeWithMargin(r.figures().reclaimableBytes())),
      new TerminalColumn("bad pages", true, r -> Long.toString(r.figures().badPages())),
      new TerminalColumn("action", false, r -> r.advice().action().label()));

  /** What the table shows for a figure nothing good was read of. */
  static final String UNKNOWN = "?";

  /** "≥" before a figure that leaves out bad pages of a part read whole (a lower bound). */
  private static String atLeast(RelationReport r, String cell) {
    return r.figures().lowerBound() && !cell.equals(UNKNOWN) ? "≥" + cell : cell;
  }

  private static String count(Estimate e) {
    return e.isKnown() ? Long.toString(Math.round(e.value())) : UNKNOWN;
  }

  static String bytes(double value) {
    return Double.isNaN(value) ? UNKNOWN : size(Math.round(value));
  }

  /** "24.86" when exact, "24.9 ±1.3" or "0.54 ±0.02" (half the 95 % interval) when estimated. */
  static String percentWithMargin(Estimate e) {
    if (!e.isKnown()) {
      return UNKNOWN;
    }
    if (e.isExact()) {
      return EstimateText.percent(e.value());
    }
    double margin = (e.high() - e.low()) / 2;
    return String.format(Locale.ROOT, margin < 1 ? "%.2f ±%.2f" : "%.1f ±%.1f", e.value(), margin);
  }

  /** "45 MB" when exact, "45 MB ±2 MB" (half the 95 % interval) when estimated; signed (a rewrite may grow). */
  static String sizeWithMargin(Estimate e) {
    if (!e.isKnown()) {
      return UNKNOWN;
    }
    String value = (e.value() < 0 ? "-" : "") + size(Math.round(Math.abs(e.value())));
    return e.isExact() ? value : value + " ±" + size(Math.round((e.high() - e.low()) / 2));
  }

  /** Share of the blocks read: "all", or a percentage. */
  private static String readShare(RelationFigures f) {
    if (f.scannedBlocks() >= f.blocks()) {
      return "all";
    }
    double share = 100.0 * f.scannedBlocks() / f.blocks();
    return String.format(Locale.ROOT, share < 1 ? "%.2f%%" : "%.0f%%", share);
  }

  @Override
  public void write(List<RelationReport> rows, PrintWriter out) {
    List<RelationReport> sorted = new ArrayList<>(rows);
    sorted.sort(RankedRelation.largestFirst(RelationReport::wastedBytes, RelationReport::relation));
    List<String[]> cells = new ArrayList<>();
    for (RelationReport row : sorted) {
      cells.add(COLUMNS.stream().map(c -> c.value().apply(row)).toArray(String[]::new));
    }
    TerminalTable.write(COLUMNS.stream().map(TerminalColumn::title).toArray(String[]::new),
        c -> COLUMNS.get(c).right(), cells, out);
    // a partitioned table's rollup is left out of the totals: its partitions have rows of their own
    List<RelationReport> own = rows.stream().filter(r -> !r.isRollup()).toList();
    long tables = own.size();
    long wasted = Math.round(own.stream().mapToDouble(RelationReport::wastedBytes).filter(w -> !Double.isNaN(w)).sum());
    long size = own.stream().map(RelationReport::figures).mapToLong(RelationFigures::tableLen).sum();
    out.println("(" + tables + (tables == 1 ? " relation, " : " relations, ") + size(size) + ", of which "
        + size(wasted) + " dead or free)");
    rows.stream().filter(r -> !r.figures().isExact()).findFirst().ifPresent(r -> out.println(
        "(estimates from block samples, seed " + r.sampleSeed() + "; ± is half the 95 % interval;"
            + " --full-scan for exact figures)"));
    if (rows.stream().anyMatch(r -> r.figures().lowerBound())) {
      out.println("(≥: a lower bound, the bad pages of a part read whole are in no figure)");
    }
    if (rows.stream().anyMatch(r -> !r.figures().tupleCount().isKnown())) {
      out.println("(?: no sampled page of a part of the relation could be read: no estimate)");
    }
  }

  /** Bytes in the units of pg_size_pretty: up to 10239 of a unit before moving to the next. */
  static String size(long bytes) {
    return ByteSize.pretty(bytes);
  }


  /** Control characters (and backslashes) shown as escapes, never interpreted. */
  static String visible(String s) {
    StringBuilder b = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char ch = s.charAt(i);
      if (ch == '\\') {
        b.append("\\\\");
      } else if (ch == '\n') {
        b.append("\\n");
      } else if (ch == '\t') {
        b.append("\\t");
      } else if (ch == '\r') {
        b.append("\\r");
      } else if (Character.isISOControl(ch) || ch == 0x2028 || ch == 0x2029) {
        b.append(String.format("\\u%04x", (int) ch));
      } else {
        b.append(ch);
      }
    }
    return b.toString();
  }
}
