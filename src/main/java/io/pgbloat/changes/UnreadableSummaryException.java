package io.pgbloat.changes;

/** A WAL summary file that is not one: what is wrong with it, in one line. Its span is then unproven. */
public final class UnreadableSummaryException extends Exception {
  private static final long serialVersionUID = 1L;

  UnreadableSummaryException(String message) {
    super(message);
  }
}
