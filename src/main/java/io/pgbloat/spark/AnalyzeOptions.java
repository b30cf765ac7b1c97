package io.pgbloat.spark;

import io.pgbloat.advice.ActionThresholds;
import io.pgbloat.catalog.Relation;
import io.pgbloat.catalog.RelationFilter;
import io.pgbloat.io.read.IoSettings;
import io.pgbloat.io.store.StoreSettings;
import io.pgbloat.sample.BlockSampler;
import io.pgbloat.sample.SampleSize;

/**
 * What to analyze and how much of it to read.
 *
 * @param dataDir the data directory: a local path or a Hadoop URI
 * @param filter which relations to report
 * @param sampleSize blocks to read per relation
 * @param seed the sample's seed: the same seed reads the same blocks, on any cluster
 * @param io how the executors read: reads in flight, combining, O_DIRECT
 * @param indexes also report the indexes (each access method's figures)
 * @param totals which totals to make ({@link Totals}): each selected table with its TOAST table
 *     and the indexes of both, read whatever the filter says of those parts
 * @param thresholds when a relation's waste is worth an action (the report's action column)
 * @param store the Hadoop settings the data directory is reached with (a remote store's)
 */
public record AnalyzeOptions(String dataDir, RelationFilter filter, SampleSize sampleSize, long seed, IoSettings io,
    boolean indexes, Totals totals, ActionThresholds thresholds, StoreSettings store) {
  /** Which totals to make. */
  public enum Totals {
    /** None. */
    NONE,
    /**
     * Each table with its TOAST table, its indexes left unread: for a query that asks for no
     * column the indexes go into (a data source's pruned columns). Those columns would be
     * wrong (no index counted), so only a scan that never returns them may ask for this.
     */
    WITHOUT_INDEXES,
    /** Each table with its TOAST table and every index of both: pg_total_relation_size's parts. */
    WITH_INDEXES;

    /** {@code WITH_INDEXES} when asked for, else none. */
    public static Totals of(boolean asked) {
      return asked ? WITH_INDEXES : NONE;
    }
  }

  /** Reached with the site files' Hadoop settings alone ({@link #withStore} sets others). */
  public AnalyzeOptions(String dataDir, RelationFilter filter, SampleSize sampleSize, long seed, IoSettings io,
      boolean indexes, Totals totals, ActionThresholds thresholds) {
    this(dataDir, filter, sampleSize, seed, io, indexes, totals, thresholds, StoreSettings.DEFAULT);
  }

  /** With totals as {@code totals} says: none, or every part. */
  public AnalyzeOptions(String dataDir, RelationFilter filter, SampleSize sampleSize, long seed, IoSettings io,
      boolean indexes, boolean totals, ActionThresholds thresholds) {
    this(dataDir, filter, sampleSize, seed, io, indexes, Totals.of(totals), thresholds);
  }

  /** Tables only, no indexes, no totals, the default thresholds. */
  public AnalyzeOptions(String dataDir, RelationFilter filter, SampleSize sampleSize, long seed, IoSettings io) {
    this(dataDir, filter, sampleSize, seed, io, false, Totals.NONE, ActionThresholds.DEFAULT);
  }

  /** These options with {@code scope} of totals. */
  public AnalyzeOptions withTotals(Totals scope) {
    return new AnalyzeOptions(dataDir, filter, sampleSize, seed, io, indexes, scope, thresholds, store);
  }

  /** These options with the data directory reached with {@code settings}. */
  public AnalyzeOptions withStore(StoreSettings settings) {
    return new AnalyzeOptions(dataDir, filter, sampleSize, seed, io, indexes, totals, thresholds, settings);
  }

  /** These options for the relations {@code narrowed} selects (a data source's pushed filters). */
  public AnalyzeOptions withFilter(RelationFilter narrowed) {
    return new AnalyzeOptions(dataDir, narrowed, sampleSize, seed, io, indexes, totals, thresholds, store);
  }

  /** The seed of one relation's sample: the run's seed mixed with its name, stable across copies. */
  public long seedFor(Relation r) {
    return BlockSampler.seedFor(seed, r.database(), r.schema(), r.name());
  }

  /** Every block of the selected relations: the exact answer. */
  public static AnalyzeOptions fullScan(String dataDir, RelationFilter filter) {
    return new AnalyzeOptions(dataDir, filter, SampleSize.fullScan(), BlockSampler.DEFAULT_SEED, IoSettings.defaults());
  }
}
