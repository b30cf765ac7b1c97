package io.pgbloat.stats;

import io.pgbloat.page.HeapPageStats;
import io.pgbloat.sample.Stratum;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** One relation's {@link PartialSums}, one per {@link Stratum}; merges exactly. */
public final class StratifiedSums implements Serializable {
  private static final long serialVersionUID = 1L;
  /** Bytes of the smallest heap tuple (MAXALIGN of the 23-byte header plus a column). */
  private static final double SMALLEST_TUPLE_BYTES = 32;

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

  /**
   * {@code measure} over each stratum of {@code population} blocks (by ordinal), as the
   * estimator takes them: all-visible pages are known to hold no dead tuple.
   */
  List<StratumSample> samples(Measure measure, long[] population) {
    List<StratumSample> samples = new ArrayList<>(strata.length);
    for (Stratum stratum : Stratum.values()) {
      samples.add(of(stratum).sample(measure, population[stratum.ordinal()],
          stratum == Stratum.ALL_VISIBLE && measure.isDead()));
    }
    return samples;
  }

  /** The estimator's guard step for {@code measure}: one tuple, in the measure's units. */
  double guardUnit(Measure measure) {
    if (!measure.isBytes()) {
      return 1;
    }
    PartialSums all = total();
    long tuples = all.sum(Measure.TUPLE_COUNT) + all.sum(Measure.DEAD_TUPLE_COUNT);
    long bytes = all.sum(Measure.TUPLE_LEN) + all.sum(Measure.DEAD_TUPLE_LEN);
    return tuples == 0 ? SMALLEST_TUPLE_BYTES : (double) bytes / tuples;
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
