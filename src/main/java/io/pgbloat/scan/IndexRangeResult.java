package io.pgbloat.scan;

import io.pgbloat.io.read.ReadTotals;
import io.pgbloat.page.BtreeMeta;
import io.pgbloat.page.IndexMetapage;
import io.pgbloat.stats.BtreeSums;
import io.pgbloat.stats.IndexPageSums;
import java.io.Serializable;
import java.util.List;
import java.util.Map;

/**
 * What one range of index blocks produced.
 *
 * @param sums per btree index, the exact sums of its pages read after the metapage
 * @param metas per btree index whose block 0 was in the range, its metapage
 * @param pageSums per index of another access method, the exact sums of its pages read
 * @param metapages per hash or GIN index whose block 0 was in the range, its metapage's figures
 * @param findings bad pages, at most {@link RangeScanner#FINDINGS_PER_RANGE}
 * @param reads what was read from disk
 */
public record IndexRangeResult(Map<Integer, BtreeSums> sums, Map<Integer, BtreeMeta> metas,
    Map<Integer, IndexPageSums> pageSums, Map<Integer, IndexMetapage> metapages, List<PageFinding> findings,
    ReadTotals reads) implements Serializable {}
