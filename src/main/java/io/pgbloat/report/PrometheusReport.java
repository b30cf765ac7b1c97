package io.pgbloat.report;

import io.pgbloat.advice.Action;
import io.pgbloat.figures.RelationFigures;
import io.pgbloat.rows.RelationReport;
import io.pgbloat.stats.Estimate;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * The report in Prometheus' text exposition format (version 0.0.4, what node_exporter's textfile
 * collector reads): a gauge per figure and relation in base units (bytes, and 0-1 ratios for
 * percentages) named as Prometheus' naming conventions ask, each estimated figure's standard
 * error beside it ({@code …_stderr_bytes}), and the run's time and duration. Labels: database,
 * schema, relation, relkind, am, toast_of. A figure that could not be estimated is left out
 * rather than written as NaN. A partitioned table's row (relkind p) sums its partitions: leave
 * it out when summing over relations.
 */
public final class PrometheusReport implements ReportWriter<RelationReport> {
  private static final String PREFIX = "pgbloat_";

  /** One gauge of every row: its name after the prefix, its help line, its value. */
  private record Gauge(String name, String help, Function<RelationFigures, Estimate> figure, boolean stderr) {}

  /** What the name of a gauge in bytes ends with, the base unit's suffix. */
  private static final String BYTES = "_bytes";

  /** The figures estimated where sampled; each in bytes has its standard error's gauge too. */
  private static final List<Gauge> ESTIMATED = List.of(
      value("live_tuples", "tuple_count: live tuples", RelationFigures::tupleCount),
      value("live_tuple_bytes", "tuple_len: bytes of live tuples", RelationFigures::tupleLen),
      value("dead_tuples", "dead_tuple_count: dead tuples", RelationFigures::deadTupleCount),
      value("dead_tuple_bytes", "dead_tuple_len: bytes of dead tuples", RelationFigures::deadTupleLen),
      value("free_bytes", "free_space: free bytes in the relation's pages", RelationFigures::freeSpace),
      value("wasted_bytes", "dead tuple bytes plus free bytes", RelationFigures::wastedBytes),
      value("reclaimable_bytes", "bytes a VACUUM FULL would give back", RelationFigures::reclaimableBytes));

  private static final List<Gauge> GAUGES = gauges();

  /** The exact figures, the estimated ones, the ratios, then the standard errors. */
  private static List<Gauge> gauges() {
    List<Gauge> gauges = new ArrayList<>(List.of(
        exact("table_bytes", "table_len: the relation's size on disk", f -> Estimate.exact(f.tableLen())),
        exact("blocks", "the relation's blocks", f -> Estimate.exact(f.blocks())),
        exact("scanned_blocks", "blocks read by this run (all of them when it read the relation whole)",
            f -> Estimate.exact(f.scannedBlocks())),
        exact("bad_pages", "pages that failed PostgreSQL's checks, left out of every figure",
            f -> Estimate.exact(f.badPages()))));
    gauges.addAll(ESTIMATED);
    gauges.add(ratio("dead_tuple_ratio", "dead_tuple_percent / 100", RelationFigures::deadTuplePercent));
    gauges.add(ratio("free_ratio", "free_percent / 100", RelationFigures::freePercent));
    gauges.add(ratio("reclaimable_ratio", "reclaimable bytes over table_len", RelationFigures::reclaimablePercent));
    ESTIMATED.stream().filter(g -> g.name().endsWith(BYTES)).forEach(g -> gauges.add(stderr(g)));
    return List.copyOf(gauges);
  }

  private final Instant runAt;
  private final double runSeconds;

  /** @param runSeconds how long the run took, start to report */
  public PrometheusReport(Instant runAt, double runSeconds) {
    this.runAt = runAt;
    this.runSeconds = runSeconds;
  }

  @Override
  public void write(List<RelationReport> rows, PrintWriter out) {
    for (Gauge g : GAUGES) {
      header(out, PREFIX + g.name(), g.help());
      for (RelationReport r : rows) {
        Estimate e = g.figure().apply(r.figures());
        double v = g.stderr() ? e.standardError() : e.value();
        if (!Double.isNaN(v)) {
          out.print(PREFIX + g.name() + labels(r) + " " + number(v) + "\n");
        }
      }
    }
    header(out, PREFIX + "action", "the recommended action, 1 on the action label's value: none, vacuum, rewrite, "
        + "sample more (docs/reports-and-actions.md, \"Actions\")");
    for (RelationReport r : rows) {
      out.print(PREFIX + "action" + labels(r, ",action=\"" + escape(r.advice().action().label()) + "\"") + " 1\n");
    }
    header(out, PREFIX + "rewrite_needs_bytes", "the free disk a recommended rewrite needs while it runs, at most "
        + "(its indexes' rebuilt copies not included)");
    for (RelationReport r : rows) {
      if (r.advice().action() == Action.REWRITE) {
        out.print(PREFIX + "rewrite_needs_bytes" + labels(r) + " " + r.advice().rewriteNeedsBytes() + "\n");
      }
    }
    header(out, PREFIX + "last_run_timestamp_seconds", "when the run started, in seconds since the epoch");
    out.print(PREFIX + "last_run_timestamp_seconds " + number(runAt.toEpochMilli() / 1000.0) + "\n");
    header(out, PREFIX + "run_duration_seconds", "how long the run took, start to report");
    out.print(PREFIX + "run_duration_seconds " + number(runSeconds) + "\n");
    out.flush();
  }

  private static Gauge exact(String name, String help, Function<RelationFigures, Estimate> figure) {
    return new Gauge(name, help, figure, false);
  }

  private static Gauge value(String name, String help, Function<RelationFigures, Estimate> figure) {
    return new Gauge(name, help + " (estimated where sampled; its standard error in the _stderr gauge)", figure,
        false);
  }

  private static Gauge ratio(String name, String help, Function<RelationFigures, Estimate> percent) {
    return new Gauge(name, help, f -> percent.apply(f).scaled(1, 100), false);
  }

  /** The standard error of {@code value}, a gauge in bytes: live_tuple_bytes' is live_tuple_stderr_bytes. */
  private static Gauge stderr(Gauge value) {
    String name = value.name().substring(0, value.name().length() - BYTES.length()) + "_stderr" + BYTES;
    return new Gauge(name, "standard error of " + value.name() + " (0 when read whole)", value.figure(), true);
  }

  private static void header(PrintWriter out, String name, String help) {
    out.print("# HELP " + name + " " + help.replace("\\", "\\\\").replace("\n", "\\n") + "\n");
    out.print("# TYPE " + name + " gauge\n");
  }

  private static String labels(RelationReport r) {
    return labels(r, "");
  }

  /** The relation's labels, then {@code more} (",name=\"value\"", escaped), in braces. */
  private static String labels(RelationReport r, String more) {
    return "{database=\"" + escape(r.relation().database()) + "\",schema=\"" + escape(r.relation().schema())
        + "\",relation=\"" + escape(r.relation().name()) + "\",relkind=\"" + r.relation().kind()
        + "\",am=\"" + escape(r.relation().am()) + "\",toast_of=\"" + escape(r.relation().toastOf()) + "\"" + more
        + "}";
  }

  /** A label value as the format writes it: backslash, double quote and line feed escaped. */
  static String escape(String s) {
    return s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
  }

  /** A whole number as one, anything else as Java writes a double (which Go's ParseFloat reads). */
  private static String number(double v) {
    if (v == Math.rint(v) && Math.abs(v) < 1e15) {
      return Long.toString((long) v);
    }
    return String.format(Locale.ROOT, "%s", v);
  }
}
