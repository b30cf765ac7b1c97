package io.pgbloat.changes;

import io.pgbloat.io.read.BlockList;
import io.pgbloat.io.read.Fork;
import java.util.HashMap;
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

  /** The changes of this span and of {@code later}, which follows it. */
  SpanChanges then(SpanChanges later) {
    Map<RelationFork, ForkChanges> both = new HashMap<>(forks);
    later.forks.forEach((fork, changes) -> both.merge(fork, changes, ForkChanges::then));
    return new SpanChanges(both);
  }

  /** The forks the span names, each with what it did to them. */
  public Map<RelationFork, ForkChanges> forks() {
    return forks;
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
