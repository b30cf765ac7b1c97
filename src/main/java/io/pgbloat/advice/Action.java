package io.pgbloat.advice;

/** A recommended action, as the report's {@code action} column writes it. */
public enum Action {
  /** Below the thresholds, or too small to matter. */
  NONE("none"),
  /** Dead tuples a plain VACUUM would make reusable (the file keeps its size). */
  VACUUM("vacuum"),
  /** VACUUM FULL, CLUSTER or pg_repack: gives the reclaimable bytes back to the file system. */
  REWRITE("rewrite"),
  /** REINDEX INDEX CONCURRENTLY: gives an index's reclaimable bytes back. */
  REINDEX("reindex"),
  /** The interval straddles a threshold: a larger sample decides. */
  SAMPLE_MORE("sample more");

  private final String label;

  Action(String label) {
    this.label = label;
  }

  public String label() {
    return label;
  }
}
