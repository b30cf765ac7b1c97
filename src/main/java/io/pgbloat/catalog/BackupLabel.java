package io.pgbloat.catalog;

import io.pgbloat.io.store.FileStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code backup_label}, which a base backup holds until recovery starts
 * ({@code do_pg_backup_start} in {@code src/backend/access/transam/xlog.c} writes it): its
 * {@code START WAL LOCATION} is where recovery of the backup reads WAL from, before the
 * checkpoint its pg_control (copied later) names.
 */
final class BackupLabel {
  /** BACKUP_LABEL_FILE ({@code src/include/access/xlog.h}). */
  static final String FILE = "backup_label";
  /** "START WAL LOCATION: 0/2000028 (file 000000010000000000000002)". */
  private static final Pattern START_WAL = Pattern.compile("(?m)^START WAL LOCATION: ([0-9A-F]+)/([0-9A-F]+)");

  private BackupLabel() {}

  /**
   * Where recovery would start reading WAL: the label's {@code start} when it comes before the
   * checkpoint's {@code checkpointRedo}, else that.
   */
  static long walStart(OptionalLong start, long checkpointRedo) {
    return start.isPresent() && Long.compareUnsigned(start.getAsLong(), checkpointRedo) < 0 ? start.getAsLong()
        : checkpointRedo;
  }

  /** The label's START WAL LOCATION; empty when the copy has no label, or one without it. */
  static OptionalLong start(FileStore files) throws IOException {
    if (files.length(FILE) < 0) {
      return OptionalLong.empty();
    }
    Matcher m = START_WAL.matcher(new String(files.readAll(FILE), StandardCharsets.US_ASCII));
    if (!m.find()) {
      return OptionalLong.empty();
    }
    return OptionalLong.of(Long.parseUnsignedLong(m.group(1), 16) << 32 | Long.parseUnsignedLong(m.group(2), 16));
  }
}
