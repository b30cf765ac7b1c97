package io.pgbloat.catalog;

import io.pgbloat.io.store.FileStore;
import java.io.IOException;

/**
 * Whether a server started on this data directory runs recovery first, and why. Recovery
 * resets every unlogged relation: it removes each fork but the init fork of a relation that has
 * one and copies the init fork over the main fork ({@code ResetUnloggedRelations},
 * {@code src/backend/storage/file/reinit.c}, called from {@code StartupXLOG} in
 * {@code src/backend/access/transam/xlog.c} when {@code InRecovery}). The same rule in 13-18
 * ({@code StartupXLOG}; from 15 {@code InitWalRecovery} in {@code xlogrecovery.c}): a
 * {@code backup_label} forces recovery whatever pg_control says; else a pg_control state other
 * than shut down (a crash, a copy of a running server, a standby even when shut down cleanly),
 * else a {@code standby.signal} or {@code recovery.signal}, asks for it. Only a primary shut down
 * cleanly, started as it is, keeps its unlogged relations' main forks.
 *
 * @param cause why recovery runs, as a message says it ("its pg_control state is in production");
 *     empty when it does not
 */
public record StartupRecovery(String cause) {
  /** STANDBY_SIGNAL_FILE and RECOVERY_SIGNAL_FILE ({@code src/include/access/xlog.h}). */
  static final String STANDBY_SIGNAL = "standby.signal";
  static final String RECOVERY_SIGNAL = "recovery.signal";

  /** A start that runs no recovery: the main forks are the server's. */
  static final StartupRecovery NONE = new StartupRecovery("");

  /** Whether a start runs recovery, and so resets every unlogged relation to its init fork. */
  public boolean runs() {
    return !cause.isEmpty();
  }

  /** What starting the server on {@code files}, whose pg_control is {@code control}, does. */
  static StartupRecovery of(FileStore files, ControlFile control) throws IOException {
    if (control.state() != ControlFile.DB_SHUTDOWNED) {
      return new StartupRecovery("its pg_control state is " + control.stateName());
    }
    for (String file : new String[] {BackupLabel.FILE, STANDBY_SIGNAL, RECOVERY_SIGNAL}) {
      if (files.length(file) >= 0) {
        return new StartupRecovery("it holds a " + file);
      }
    }
    return NONE;
  }
}
