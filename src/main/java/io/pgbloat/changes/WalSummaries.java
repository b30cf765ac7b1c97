package io.pgbloat.changes;

import io.pgbloat.io.store.FileStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The WAL summaries a copy holds in {@code pg_wal/summaries}: which of them cover a span of WAL
 * ({@link #cover}), and the blocks they say changed in it ({@link #changes}).
 */
public final class WalSummaries {
  private final FileStore files;
  private final List<WalSummaryName> names;

  private WalSummaries(FileStore files, List<WalSummaryName> names) {
    this.files = files;
    this.names = names;
  }

  /** The summaries of the data directory {@code files} holds; none where it has no summaries directory. */
  public static WalSummaries in(FileStore files) throws IOException {
    List<WalSummaryName> names = new ArrayList<>();
    if (files.isDirectory(WalSummaryName.DIRECTORY)) {
      for (String name : files.list(WalSummaryName.DIRECTORY)) {
        WalSummaryName.parse(name).ifPresent(names::add);
      }
    }
    names.sort(Comparator.comparingLong(WalSummaryName::timeline).thenComparingLong(WalSummaryName::startLsn));
    return new WalSummaries(files, List.copyOf(names));
  }

  public List<WalSummaryName> names() {
    return names;
  }

  /** The summaries of {@code timeline} that cover [from, to) from its start without a gap, as far as they reach. */
  public SummaryCover cover(long timeline, long from, long to) {
    List<WalSummaryName> used = new ArrayList<>();
    long coveredTo = from;
    for (WalSummaryName s : names) {
      if (s.timeline() != timeline || s.endLsn() <= coveredTo || coveredTo >= to) {
        continue;
      }
      if (s.startLsn() > coveredTo) {
        break; // a gap: the WAL from coveredTo on is not summarized
      }
      used.add(s);
      coveredTo = s.endLsn();
    }
    return new SummaryCover(timeline, from, to, List.copyOf(used), coveredTo);
  }

  /** What the summaries of {@code cover} say changed, fork by fork. */
  public SpanChanges changes(SummaryCover cover) throws IOException, UnreadableSummaryException {
    Map<RelationFork, ForkChanges> forks = new HashMap<>();
    for (WalSummaryName s : cover.summaries()) {
      List<ForkChanges> read;
      try {
        read = WalSummaryFile.parse(files.readAll(s.path()));
      } catch (UnreadableSummaryException e) {
        throw new UnreadableSummaryException(s.path() + " " + e.getMessage());
      }
      for (ForkChanges f : read) {
        forks.merge(f.fork(), f, ForkChanges::then);
      }
    }
    return new SpanChanges(forks);
  }
}
