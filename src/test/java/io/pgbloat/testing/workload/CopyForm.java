package io.pgbloat.testing.workload;

/**
 * How a seed's data directory reaches the tool, and where its truth comes from.
 *
 * <ul>
 * <li>{@link #CLEAN}: the server is stopped cleanly; the truth is taken on it, restarted, and
 * the tool reads the directory stopped again.</li>
 * <li>{@link #RAW}: the stopped directory is copied before anything reads it again (hint bits
 * left as the workload left them); the tool reads the copy.</li>
 * <li>{@link #ONLINE}: a low-level online copy (a non-exclusive backup, the files copied while
 * the server runs, its label written beside them) taken while a load writes a database of its
 * own; the tool reads the copy, the truth comes from a server started on another copy of it,
 * recovered to the backup's end.</li>
 * <li>{@link #STANDBY}: a streaming standby made before the workload, stopped cleanly once it
 * replayed all of it; the tool reads its directory, the truth comes from a server started on a
 * copy of it.</li>
 * </ul>
 *
 * Every form but the clean one takes its truth on a server other than the files the tool
 * reads, so a prepared transaction holding an xid is taken before the workload: the horizon it
 * holds keeps any scan from pruning what the tool read.
 */
public enum CopyForm {
  CLEAN, RAW, ONLINE, STANDBY;

  /** The name the rebuild command and the reports use. */
  public String label() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }

  /** Whether the truth is read from another server than the files the tool reads. */
  public boolean truthElsewhere() {
    return this != CLEAN;
  }
}
