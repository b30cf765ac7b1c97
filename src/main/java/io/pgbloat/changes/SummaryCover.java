package io.pgbloat.changes;

import java.util.List;

/**
 * The summaries of one timeline that cover as much as they can of the WAL span [from, to), one
 * after the other without a gap from {@code from} on, as PrepareForIncrementalBackup asks of them
 * ({@code src/backend/backup/basebackup_incremental.c}, WalSummariesAreComplete):
 * {@code coveredTo} is the first LSN they leave unsummarized.
 */
public record SummaryCover(long timeline, long from, long to, List<WalSummaryName> summaries, long coveredTo) {
  public boolean isComplete() {
    return coveredTo >= to;
  }

  /** What is missing, in one line, for a cover that is not complete. */
  public String gap() {
    return "the WAL summaries of timeline " + timeline + " cover " + WalSummaryName.lsn(from) + " to "
        + WalSummaryName.lsn(to) + " only up to " + WalSummaryName.lsn(coveredTo);
  }
}
