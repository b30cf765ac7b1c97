package io.pgbloat.page;

import java.io.Serializable;

/**
 * How one cluster's pages are checked and counted: whether they carry checksums
 * ({@code pg_control}) and how its version's pgstattuple measures free space. Small and
 * serializable, so the driver decides it once and every task gets a copy.
 *
 * @param dataChecksums whether pages carry data checksums (pg_control's data_checksum_version)
 * @param freeSpace the free-space rule of the cluster's major version
 */
public record PageRules(boolean dataChecksums, FreeSpaceRule freeSpace) implements Serializable {

  /** A new verifier: one serves one thread. */
  public PageVerifier verifier() {
    return new PageVerifier(dataChecksums);
  }
}
