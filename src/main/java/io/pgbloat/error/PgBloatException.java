package io.pgbloat.error;

/**
 * Base of every failure this tool reports to its user. Messages read
 * "Cannot &lt;do&gt;: &lt;why&gt; (file=..., block=...)" and end with what to do, so the
 * command line can print them as one line without a stack trace.
 */
public abstract class PgBloatException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  protected PgBloatException(String message) {
    super(message);
  }

  protected PgBloatException(String message, Throwable cause) {
    super(message, cause);
  }
}
