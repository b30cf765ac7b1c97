package io.pgbloat.testing.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A seed's whole workload: the PostgreSQL major and the copy form in turn, and, drawn from
 * {@code new Random(seed)}, two to five tables with their shapes, loads and indexes. {@link #sql} renders it
 * as one script; the same seed always gives the same plan and script.
 *
 * @param pinAtStart a prepared transaction holding an xid is taken first, so that nothing
 *     read after the script prunes a page (every form whose truth is read elsewhere needs it)
 * @param pinBeforeDeletes a prepared transaction taken before the deletes pins the horizon, so
 *     VACUUM keeps their dead tuples
 * @param preparedWriter a prepared transaction that inserted and deleted rows of the first table
 */
public record WorkloadPlan(long seed, int major, CopyForm copyForm, List<TablePlan> tables, boolean pinBeforeDeletes,
    boolean preparedWriter, boolean pinAtStart) {

  /** The majors a seed draws from. */
  public static final List<Integer> MAJORS = List.of(13, 14, 15, 16, 17, 18);

  /** The plan of {@code seed}. */
  public static WorkloadPlan draw(long seed) {
    // The major and the copy form go round in turn, the form shifted by one more each round of
    // majors, so that any run of seeds spreads evenly over both and each 24 take every pair once.
    int major = MAJORS.get((int) Math.floorMod(seed, (long) MAJORS.size()));
    CopyForm[] forms = CopyForm.values();
    CopyForm form = forms[(int) Math.floorMod(seed + seed / MAJORS.size(), (long) forms.length)];
    Random random = new Random(seed);
    int count = 2 + random.nextInt(4);
    List<TablePlan> tables = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      tables.add(TableDraw.draw(random, "t" + i));
    }
    boolean pinBefore = random.nextInt(4) == 0;
    boolean writer = random.nextInt(4) == 0;
    return new WorkloadPlan(seed, major, form, List.copyOf(tables), pinBefore, writer, form.truthElsewhere());
  }

  /** The script: extensions, tables, loads, indexes, vacuums, pins. */
  public String sql() {
    return new WorkloadScript(this).render();
  }

  /** One line for a report: the seed's version, copy form and tables. */
  public String describe() {
    StringBuilder out = new StringBuilder("seed " + seed + ": PostgreSQL " + major + ", " + copyForm.label());
    for (TablePlan t : tables) {
      out.append("; ").append(t.name()).append(" ").append(t.rows()).append(" rows")
          .append(t.partitioning().isEmpty() ? "" : " " + t.partitioning() + "-partitioned")
          .append(t.unlogged() ? " unlogged" : "").append(t.toast() ? " toast" : "")
          .append(" [").append(String.join(",", t.indexes().stream().map(IndexPlan::method).toList())).append("]");
    }
    return out.toString();
  }
}
