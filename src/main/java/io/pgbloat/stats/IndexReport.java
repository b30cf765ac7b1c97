package io.pgbloat.stats;

import io.pgbloat.catalog.Relation;
import java.io.Serializable;

/**
 * One row of the index report: a btree index and its pgstatindex figures.
 *
 * @param sampleSeed the seed its sample was drawn with, or null when every block was read
 */
public record IndexReport(Relation relation, IndexEstimates estimates, Long sampleSeed) implements Serializable {}
