package io.pgbloat.error;

/**
 * The data directory (or one of its files) cannot be used: missing, unreadable, not a
 * PostgreSQL data directory, or damaged where nothing sensible can be reported.
 */
public class DataDirectoryException extends PgBloatException {
  private static final long serialVersionUID = 1L;

  public DataDirectoryException(String message) {
    super(message);
  }

  public DataDirectoryException(String message, Throwable cause) {
    super(message, cause);
  }
}
