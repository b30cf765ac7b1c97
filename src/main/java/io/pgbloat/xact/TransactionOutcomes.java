package io.pgbloat.xact;

/**
 * The questions a snapshot rule asks of the commit log where hint bits do not answer
 * ({@code src/backend/access/transam/transam.c}, {@code procarray.c}, {@code multixact.c}):
 * answered from the copy's pg_xact and pg_multixact ({@link TransactionStatus}), or by no one
 * yet, while a backup is still being decoded ({@code pass.HintBitsOnly}).
 */
public interface TransactionOutcomes {
  /** TransactionIdIsInProgress as a server starting on the copy would answer it. */
  boolean isInProgress(int xid);

  /** TransactionIdDidCommit. */
  boolean didCommit(int xid);

  /** HeapTupleGetUpdateXid for a multixact xmax: its updater, or 0 if it only locked. */
  int multiXactUpdater(int multi);

  /** How many answers so far were for transactions the copy holds no outcome for. */
  long withoutOutcome();

  /**
   * How many answers so far a later copy of the same cluster may give otherwise although the
   * tuple's page stays as it is: a transaction still in progress (prepared, running when the copy
   * was taken, or one the copy holds no outcome for), a subtransaction whose parent had not
   * finished, a multixact the copy does not hold. Every other answer is final: an outcome once
   * recorded, or a crash, never changes.
   */
  long unsettled();
}
