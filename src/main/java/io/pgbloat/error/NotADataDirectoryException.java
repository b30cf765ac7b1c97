package io.pgbloat.error;

/**
 * The path given is not a PostgreSQL data directory at all (missing, not a directory, no
 * PG_VERSION, a URI scheme no file system serves, a bucket the store does not have): the user
 * pointed at the wrong place.
 */
public class NotADataDirectoryException extends DataDirectoryException {
  private static final long serialVersionUID = 1L;

  public NotADataDirectoryException(String message) {
    super(message);
  }

  public NotADataDirectoryException(String message, Throwable cause) {
    super(message, cause);
  }
}
