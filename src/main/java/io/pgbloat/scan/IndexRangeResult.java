package io.pgbloat.scan;

import io.pgbloat.page.BtreeMeta;
import io.pgbloat.stats.BtreeSums;
import java.io.Serializable;
import java.util.List;
import java.util.Map;

/**
 * What one range of index blocks produced.
 *
 * @param sums per index, the exact sums of its pages read after the metapage
 * @param metas per index whose block 0 was in the range, its metapage
 * @param findings bad pages, at most {@link RangeScanner#FINDINGS_PER_RANGE}
 * @param blocksRead blocks read from disk
 * @param readCalls read requests issued
 */
public record IndexRangeResult(Map<Integer, BtreeSums> sums, Map<Integer, BtreeMeta> metas, List<PageFinding> findings,
    long blocksRead, long readCalls) implements Serializable {}
