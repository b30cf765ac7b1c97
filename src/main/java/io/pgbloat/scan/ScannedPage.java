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
 * @param unsettled whether its count stood on an answer of the commit log that a later copy may
 *     give otherwise ({@link io.pgbloat.xact.TransactionOutcomes#unsettled}), so that its sums
 *     hold for this copy only
 */
public record ScannedPage(int relation, long block, Stratum stratum, HeapPageStats stats, boolean unsettled) {}
