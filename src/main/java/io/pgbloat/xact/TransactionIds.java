package io.pgbloat.xact;

/** Special transaction ids and their order ({@code src/include/access/transam.h}). */
public final class TransactionIds {
  /** InvalidTransactionId. */
  public static final int INVALID = 0;
  /** BootstrapTransactionId: counts as committed. */
  public static final int BOOTSTRAP = 1;
  /** FrozenTransactionId: counts as committed. */
  public static final int FROZEN = 2;
  /** FirstNormalTransactionId. */
  public static final int FIRST_NORMAL = 3;

  private TransactionIds() {}

  /** TransactionIdIsNormal. */
  public static boolean isNormal(int xid) {
    return Integer.compareUnsigned(xid, FIRST_NORMAL) >= 0;
  }

  /** TransactionIdPrecedes: modulo-2^32 order for normal ids, plain order otherwise. */
  public static boolean precedes(int a, int b) {
    if (!isNormal(a) || !isNormal(b)) {
      return Integer.compareUnsigned(a, b) < 0;
    }
    return a - b < 0;
  }
}
