package io.pgbloat.testing.workload;

/**
 * How a seed's data directory reaches the tool, and where its truth comes from.
 *
 * <ul>
 * <li>{@link #CLEAN}: the server is stopped cleanly; the truth is taken on it, restarted, and
 * the tool reads the directory stopped again.</li>
 * <li>{@link #RAW}: the stopped directory is copied before anything reads it again (hint bits
 * left as the workload left them, a prepared transaction holding the horizon so that the
 * truth's scan prunes nothing); the tool reads the copy.</li>
 * </ul>
 */
public enum CopyForm {
  CLEAN, RAW;

  /** The name the rebuild command and the reports use. */
  public String label() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
