package io.pgbloat.cli;

import io.pgbloat.error.PgBloatException;

/** The command line is wrong: exit status 2, with a usage hint. */
final class UsageException extends PgBloatException {
  private static final long serialVersionUID = 1L;

  UsageException(String message) {
    super(message);
  }
}
