package io.pgbloat.page;

/**
 * What a visibility rule said of one tuple: live or dead, and whether the answer stood on a
 * transaction the copy holds no outcome for (taken as still running), which a page counts so the
 * report can say how many of its tuples such guesses decided.
 */
public enum TupleVerdict {
  LIVE(true, false),
  DEAD(false, false),
  LIVE_WITHOUT_OUTCOME(true, true),
  DEAD_WITHOUT_OUTCOME(false, true);

  private final boolean live;
  private final boolean withoutOutcome;

  TupleVerdict(boolean live, boolean withoutOutcome) {
    this.live = live;
    this.withoutOutcome = withoutOutcome;
  }

  /** The verdict of a tuple found {@code live}, on an answer {@code withoutOutcome} or not. */
  public static TupleVerdict of(boolean live, boolean withoutOutcome) {
    if (withoutOutcome) {
      return live ? LIVE_WITHOUT_OUTCOME : DEAD_WITHOUT_OUTCOME;
    }
    return live ? LIVE : DEAD;
  }

  public boolean isLive() {
    return live;
  }

  /** Whether the verdict stood on a transaction the copy holds no outcome for. */
  public boolean withoutOutcome() {
    return withoutOutcome;
  }
}
