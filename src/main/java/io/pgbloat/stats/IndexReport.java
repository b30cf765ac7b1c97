package io.pgbloat.stats;

import io.pgbloat.catalog.Relation;
import java.io.Serializable;

/**
 * One row of the index report: an index and its figures.
 *
 * @param blocks its length in blocks
 * @param estimates a btree's pgstatindex figures, or null for another access method
 * @param pages another access method's figures, or null for btree and for a method whose
 *     pages are not read
 * @param sampleSeed the seed its sample was drawn with, or null when every block was read
 */
public record IndexReport(Relation relation, long blocks, IndexEstimates estimates, IndexPageEstimates pages,
    Long sampleSeed)
    implements Serializable {

  /** Pages that failed the checks. */
  public long badPages() {
    return estimates != null ? estimates.badPages() : pages != null ? pages.badPages() : 0;
  }

  /** Whether its pages were read at all (btree and the methods with a page counter). */
  public boolean isAnalysed() {
    return estimates != null || pages != null;
  }
}
