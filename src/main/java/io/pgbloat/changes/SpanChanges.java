package io.pgbloat.changes;

import io.pgbloat.io.read.BlockList;
import io.pgbloat.io.read.Fork;
import java.util.Map;

/**
 * The forks a span of WAL changed ({@link WalSummaries#changes}). A fork no summary names was
 * not changed; one of a database created or dropped in the span (an entry of relNumber 0,
 * SummarizeDbaseRecord in {@code src/backend/postmaster/walsummarizer.c}) is changed whole.
 */
public final class SpanChanges {
  private final Map<RelationFork, ForkChanges> forks;

  SpanChanges(Map<RelationFork, ForkChanges> forks) {
    this.forks = Map.copyOf(forks);
  }

  /** What the span did to {@code fork}. */
  public ForkChanges of(RelationFork fork) {
    RelationFork database = new RelationFork(fork.tablespace(), fork.database(), 0, Fork.MAIN);
    if (forks.containsKey(database)) {
      return new ForkChanges(fork, 0, BlockList.of());
    }
    return forks.getOrDefault(fork, new ForkChanges(fork, ForkChanges.NO_LIMIT, BlockList.of()));
  }
}
