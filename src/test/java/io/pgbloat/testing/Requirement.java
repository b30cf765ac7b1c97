package io.pgbloat.testing;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * A test's need for something outside the JVM (a PostgreSQL server, Chromium): unmet, the test
 * is skipped with the reason on a developer's machine, and fails under CI ({@code CI=true}),
 * where {@code .ci/run} installs everything and a skip would hide a broken install.
 */
public final class Requirement {
  private Requirement() {}

  /** Continues when {@code reason} is empty; else skips, or under CI fails, naming it. */
  public static void require(String reason) {
    if (reason.isEmpty()) {
      return;
    }
    if ("true".equals(System.getenv("CI"))) {
      Assertions.fail("CI=true, so a test whose requirement is unmet fails instead of skipping: " + reason);
    }
    Assumptions.abort(reason);
  }
}
