package io.pgbloat.error;

/**
 * The store that holds the data directory did not serve a request: it refused the credentials
 * or found none, kept throttling, could not be reached, or failed. Nothing is known of the
 * files from it, so it ends the run rather than marking them bad; the message names the store
 * setting to fix. It carries no exception of the store's connector (whose classes a task's
 * failure cannot always carry to the driver), only a copy of its text.
 */
public class StoreAccessException extends DataDirectoryException {
  private static final long serialVersionUID = 1L;

  public StoreAccessException(String message, Throwable cause) {
    super(message, cause);
  }
}
