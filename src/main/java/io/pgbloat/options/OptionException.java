package io.pgbloat.options;

/** An option the user gave wrongly: the message is one line naming it and what it takes. */
public final class OptionException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  public OptionException(String message) {
    super(message);
  }
}
