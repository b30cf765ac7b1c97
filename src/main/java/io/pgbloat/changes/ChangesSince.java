package io.pgbloat.changes;

import io.pgbloat.catalog.ControlFile;
import io.pgbloat.catalog.DataDirectory;
import io.pgbloat.io.store.FileStore;
import java.io.IOException;
import java.util.OptionalLong;

/**
 * What changed in a copy since an earlier copy of the same cluster, proven from what the copy
 * holds, or why it cannot be. The span runs from the earlier copy's {@link CopyPoint#from} to
 * the point past which the copy's files hold no change (its {@link #end}: the copy is read as
 * it is, no WAL replayed over it):
 *
 * <ul>
 * <li>a copy stopped cleanly: its shutdown checkpoint;</li>
 * <li>a base backup ({@code backup_label}): the XLOG_BACKUP_END record {@code pg_backup_stop}
 *     writes for its start, after the files were copied;</li>
 * <li>a standby's or recovering server's copy: its minimum recovery point, or its last
 *     restartpoint if later;</li>
 * <li>any other copy of a running server (a snapshot): the end of its WAL, since a page is
 *     written only after the WAL of its changes.</li>
 * </ul>
 *
 * The WAL summaries cover the span from its start as far as they reach without a gap
 * ({@link WalSummaries#cover}); the copy's own WAL records ({@link WalRecordChanges}) the rest.
 */
public final class ChangesSince {
  private final SpanChanges changes;
  private final String unproven;

  private ChangesSince(SpanChanges changes, String unproven) {
    this.changes = changes;
    this.unproven = unproven;
  }

  /** What changed in {@code copy}, held in {@code files}, since a copy at {@code earlier}. */
  public static ChangesSince in(DataDirectory copy, FileStore files, CopyPoint earlier) throws IOException {
    CopyPoint later = CopyPoint.of(copy);
    String mismatch = earlier.mismatch(later);
    if (mismatch != null) {
      return unproven(mismatch);
    }
    if (later.major() < WalSummaryName.FIRST_MAJOR) {
      return unproven("PostgreSQL " + later.major() + " keeps no WAL summaries (" + WalSummaryName.FIRST_MAJOR
          + " and later do, with summarize_wal on)");
    }
    WalSummaries summaries = WalSummaries.in(files);
    SummaryCover cover = summaries.cover(later.timeline(), earlier.from(), Long.MAX_VALUE);
    OptionalLong backupStart = copy.backupStart();
    long walFrom = backupStart.isPresent() ? Math.min(cover.coveredTo(), backupStart.getAsLong()) : cover.coveredTo();
    WalRecordChanges wal = WalRecordChanges.read(files, copy.version().wal(), walFrom);
    ControlFile control = copy.control();
    long end;
    if (backupStart.isPresent()) {
      Long backupEnd = wal.backupEnds().get(backupStart.getAsLong());
      if (backupEnd == null) {
        return unproven(wal.refusal() != null ? wal.refusal() : "the copy's WAL from "
            + WalSummaryName.lsn(walFrom) + " holds no end of its backup (begun at "
            + WalSummaryName.lsn(backupStart.getAsLong()) + "), so what its files hold cannot be bounded");
      }
      end = backupEnd;
    } else if (control.state() == ControlFile.DB_SHUTDOWNED) {
      end = control.checkpoint();
    } else if (control.inRecovery()) {
      end = Math.max(control.checkpoint(), control.minRecoveryPoint());
    } else {
      if (wal.walAfterGap()) {
        return unproven("the copy's WAL breaks off at " + WalSummaryName.lsn(wal.end())
            + " and goes on later: what its files hold cannot be bounded");
      }
      end = wal.end();
    }
    SpanChanges summarized;
    try {
      summarized = summaries.changes(cover);
    } catch (UnreadableSummaryException e) {
      return unproven(e.getMessage());
    }
    if (cover.coveredTo() >= end) {
      return new ChangesSince(summarized, null);
    }
    if (!wal.reaches(end)) {
      return unproven(wal.refusal() != null ? wal.refusal() : cover.coveredTo() > earlier.from()
          ? "the WAL summaries end at " + WalSummaryName.lsn(cover.coveredTo()) + " and the copy's WAL from there reaches "
              + WalSummaryName.lsn(wal.end()) + " only, short of " + WalSummaryName.lsn(end)
          : "no WAL summary of timeline " + later.timeline() + " begins by " + WalSummaryName.lsn(earlier.from())
              + " (summarize_wal off, or a summary removed), and the copy's WAL from there reaches "
              + WalSummaryName.lsn(wal.end()) + " only, short of " + WalSummaryName.lsn(end));
    }
    return new ChangesSince(summarized.then(new SpanChanges(wal.forks())), null);
  }

  private static ChangesSince unproven(String why) {
    return new ChangesSince(null, why);
  }

  /** Whether the copy proves what changed. */
  public boolean isProven() {
    return unproven == null;
  }

  /** Why the copy does not prove what changed, in one line; null when it does. */
  public String unproven() {
    return unproven;
  }

  /** What changed, fork by fork; null when nothing is proven. */
  public SpanChanges changes() {
    return changes;
  }
}
