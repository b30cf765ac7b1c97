package io.pgbloat.changes;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The name of a WAL summary file in {@code pg_wal/summaries} ({@code
 * src/backend/backup/walsummary.c}, GetWalSummaries, and walsummarizer.c, SummarizeWAL): the
 * timeline, then the first LSN summarized and the LSN just past the last, each as two 8-digit
 * upper-case hex halves, then {@code .summary}. The span is [start, end). The summarizer writes
 * {@code temp.summary} first and renames it; a name of another form is not a summary.
 */
public record WalSummaryName(long timeline, long startLsn, long endLsn) {
  public static final String DIRECTORY = "pg_wal/summaries";
  /** The first major version whose WAL summarizer writes them (summarize_wal). */
  public static final int FIRST_MAJOR = 17;
  private static final Pattern NAME = Pattern.compile("[0-9A-F]{40}\\.summary");

  /** The summary {@code fileName} names, or empty for any other file. */
  public static Optional<WalSummaryName> parse(String fileName) {
    if (!NAME.matcher(fileName).matches()) {
      return Optional.empty();
    }
    long tli = Long.parseLong(fileName.substring(0, 8), 16);
    long start = Long.parseLong(fileName.substring(8, 16), 16) << 32 | Long.parseLong(fileName.substring(16, 24), 16);
    long end = Long.parseLong(fileName.substring(24, 32), 16) << 32 | Long.parseLong(fileName.substring(32, 40), 16);
    return Optional.of(new WalSummaryName(tli, start, end));
  }

  /** The file's path in a data directory. */
  public String path() {
    return String.format(Locale.ROOT, "%s/%08X%08X%08X%08X%08X.summary", DIRECTORY, timeline, startLsn >>> 32,
        startLsn & 0xFFFF_FFFFL, endLsn >>> 32, endLsn & 0xFFFF_FFFFL);
  }

  /** An LSN as PostgreSQL prints it: {@code 0/16B3748}. */
  public static String lsn(long lsn) {
    return String.format(Locale.ROOT, "%X/%X", lsn >>> 32, lsn & 0xFFFF_FFFFL);
  }
}
