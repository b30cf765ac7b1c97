package io.pgbloat.changes;

import io.pgbloat.catalog.ControlFile;
import io.pgbloat.catalog.DataDirectory;
import java.io.Serializable;

/**
 * Where a copy of a cluster stands in its WAL, as a run keeps it to compare a later copy with:
 * the cluster (pg_control's system identifier, the major version), the timeline, whether its
 * pages carry checksums ({@code pg_checksums} rewrites every page without WAL), and
 * {@link #from}, the LSN before which every change is in the copy's files: a checkpoint's redo
 * point (written out before its record), or a base backup's start (the checkpoint
 * {@code pg_backup_start} waits for).
 *
 * @param systemIdentifier pg_control's system_identifier
 * @param major the PostgreSQL major version
 * @param timeline the checkpoint's timeline
 * @param dataChecksumVersion pg_control's data_checksum_version
 * @param from every change before this LSN is in the copy's files
 */
public record CopyPoint(long systemIdentifier, int major, long timeline, int dataChecksumVersion, long from)
    implements Serializable {

  public static CopyPoint of(DataDirectory copy) {
    ControlFile control = copy.control();
    return new CopyPoint(control.systemIdentifier(), copy.version().major(), control.timeline(),
        control.dataChecksumVersion(), copy.walStart());
  }

  /** Why a copy at {@code later} cannot be compared with this one, in one line; null when it can. */
  public String mismatch(CopyPoint later) {
    if (later.systemIdentifier != systemIdentifier) {
      return "the copy is of another cluster (system identifier " + Long.toUnsignedString(later.systemIdentifier)
          + ", the earlier run's " + Long.toUnsignedString(systemIdentifier) + ")";
    }
    if (later.major != major) {
      return "the copy is of PostgreSQL " + later.major + ", the earlier run's of " + major;
    }
    if (later.timeline != timeline) {
      return "the copy is on timeline " + later.timeline + ", the earlier run's on " + timeline;
    }
    if (later.dataChecksumVersion != dataChecksumVersion) {
      return "data checksums were turned " + (later.dataChecksumVersion != 0 ? "on" : "off")
          + " since the earlier run, which rewrites pages without WAL";
    }
    if (later.from < from) {
      return "the copy is older than the earlier run's (" + WalSummaryName.lsn(later.from) + " before "
          + WalSummaryName.lsn(from) + ")";
    }
    return null;
  }
}
