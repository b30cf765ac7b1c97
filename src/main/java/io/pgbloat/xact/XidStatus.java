package io.pgbloat.xact;

/**
 * A transaction's two status bits in pg_xact ({@code src/include/access/clog.h},
 * XidStatus values TRANSACTION_STATUS_*).
 */
public enum XidStatus {
  /** 0x00: in progress, or crashed before it finished. */
  IN_PROGRESS,
  /** 0x01: committed. */
  COMMITTED,
  /** 0x02: aborted. */
  ABORTED,
  /** 0x03: a subtransaction whose parent's commit had not been recorded yet. */
  SUB_COMMITTED;

  static XidStatus fromBits(int bits) {
    return values()[bits & 0x3];
  }
}
