package io.pgbloat.error;

/** The data directory is sound but of a kind this tool does not read (version, block size). */
public class UnsupportedClusterException extends PgBloatException {
  private static final long serialVersionUID = 1L;

  public UnsupportedClusterException(String message) {
    super(message);
  }
}
