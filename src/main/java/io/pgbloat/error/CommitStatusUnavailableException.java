package io.pgbloat.error;

/**
 * A transaction's commit status cannot be looked up (its pg_xact or pg_multixact page is
 * missing or short). The page that needed it is reported bad rather than guessed.
 */
public class CommitStatusUnavailableException extends PgBloatException {
  private static final long serialVersionUID = 1L;

  public CommitStatusUnavailableException(String message) {
    super(message);
  }
}
