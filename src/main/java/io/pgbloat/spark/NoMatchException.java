package io.pgbloat.spark;

import io.pgbloat.error.PgBloatException;

/** A --database or --table filter that matches nothing: a usage error, not a data error. */
public final class NoMatchException extends PgBloatException {
  private static final long serialVersionUID = 1L;

  public NoMatchException(String message) {
    super(message);
  }
}
