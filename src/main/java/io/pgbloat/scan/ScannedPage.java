package io.pgbloat.scan;

import io.pgbloat.page.HeapPageStats;
import io.pgbloat.sample.Stratum;

/**
 * One page as a scan found it.
 *
 * @param relation the relation's index in the plan
 * @param block its block number in the relation fork
 * @param stratum the stratum it was sampled from
 * @param stats what it contributes; {@link HeapPageStats#isBad()} when it could not be counted
 */
public record ScannedPage(int relation, long block, Stratum stratum, HeapPageStats stats) {}
