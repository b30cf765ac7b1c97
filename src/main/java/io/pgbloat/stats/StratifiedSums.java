package io.pgbloat.stats;

import io.pgbloat.page.HeapPageStats;
import io.pgbloat.sample.Stratum;
import java.io.Serializable;
import java.util.Arrays;

/** One relation's {@link PartialSums}, one per {@link Stratum}; merges exactly. */
public final class StratifiedSums implements Serializable {
  private static final long serialVersionUID = 1L;

  private final PartialSums[] strata = new PartialSums[Stratum.COUNT];

  public StratifiedSums() {
    for (int h = 0; h < strata.length; h++) {
      strata[h] = new PartialSums();
    }
  }

  public void add(Stratum stratum, HeapPageStats page) {
    strata[stratum.ordinal()].add(page);
  }

  /** Adds {@code tuples} to the tuples of {@code stratum} decided without an outcome (see HeapPageStats). */
  public void addWithoutOutcome(Stratum stratum, long tuples) {
    strata[stratum.ordinal()].addWithoutOutcome(tuples);
  }

  public StratifiedSums merge(StratifiedSums other) {
    for (int h = 0; h < strata.length; h++) {
      strata[h].merge(other.strata[h]);
    }
    return this;
  }

  public PartialSums of(Stratum stratum) {
    return strata[stratum.ordinal()];
  }

  /** The strata added together: exact totals of what was read. */
  public PartialSums total() {
    PartialSums all = new PartialSums();
    for (PartialSums s : strata) {
      all.merge(s);
    }
    return all;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof StratifiedSums s && Arrays.equals(strata, s.strata);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(strata);
  }
}
