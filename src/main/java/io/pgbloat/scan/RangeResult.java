package io.pgbloat.scan;

import io.pgbloat.io.read.ReadTotals;
import io.pgbloat.stats.StratifiedSums;
import java.io.Serializable;
import java.util.List;
import java.util.Map;

/**
 * What one range's scan produced: exact sums per relation and stratum, and the first few findings (the
 * counts in the sums are exact whatever the number of findings kept).
 *
 * @param sums per relation index
 * @param deadFractionBins per relation index, its good pages counted by dead fraction
 *     ({@link io.pgbloat.stats.DeadFractionHistogram#binOfDeadBytes})
 * @param findings bad pages, at most {@link RangeScanner#FINDINGS_PER_RANGE}
 * @param reads what was read from disk
 */
public record RangeResult(Map<Integer, StratifiedSums> sums, Map<Integer, long[]> deadFractionBins,
    List<PageFinding> findings, ReadTotals reads)
    implements Serializable {}
