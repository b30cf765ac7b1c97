package io.pgbloat.testing;

import java.util.function.Supplier;

/**
 * A test fixture built on first use and shared by the tests of a class: built once, and a
 * build that failed fails every test that asks for it, with the first failure as the cause,
 * instead of being tried again.
 *
 * @param <T> what is built
 */
public final class BuiltOnce<T> {
  private final String what;
  private final Supplier<T> build;
  private T value;
  private RuntimeException failure;

  /** @param what the fixture, for the failure's message ("the base-backup case") */
  public BuiltOnce(String what, Supplier<T> build) {
    this.what = what;
    this.build = build;
  }

  public synchronized T get() {
    if (value == null && failure == null) {
      try {
        value = build.get();
      } catch (RuntimeException e) {
        failure = e;
      }
    }
    if (failure != null) {
      throw new IllegalStateException("building " + what + " failed", failure);
    }
    return value;
  }
}
