package io.pgbloat.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.io.store.HadoopFileStore;
import io.pgbloat.io.store.StoreSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Whether a start runs recovery, by pg_control's state and the files that ask for it
 * (xlogrecovery.c, InitWalRecovery): only "shut down" with none of them runs none.
 */
class StartupRecoveryTest {
  private static final int IN_PRODUCTION = 6;
  private static final int IN_ARCHIVE_RECOVERY = 5;
  @TempDir Path dir;

  private static ControlFile inState(int state) {
    return new ControlFile(7000000000000000001L, 202209061, state, 0, 0, 1, 0, 1000, 1, 0, 0, 8192, 131072, 0);
  }

  private StartupRecovery start(int state, String... files) throws IOException {
    for (String file : files) {
      Files.writeString(dir.resolve(file), "");
    }
    try (HadoopFileStore store = HadoopFileStore.open(dir.toString(), StoreSettings.DEFAULT.configuration())) {
      return StartupRecovery.of(store, inState(state));
    }
  }

  @Test
  void aCleanShutdownStartsWithoutRecovery() throws IOException {
    StartupRecovery none = start(ControlFile.DB_SHUTDOWNED);
    assertFalse(none.runs());
    assertEquals("", none.cause());
  }

  @Test
  void anyOtherStateRunsIt() throws IOException {
    assertEquals("its pg_control state is in production", start(IN_PRODUCTION).cause());
    assertEquals("its pg_control state is in archive recovery", start(IN_ARCHIVE_RECOVERY).cause());
    assertTrue(start(ControlFile.DB_SHUTDOWNED_IN_RECOVERY).runs(), "a standby shut down cleanly still recovers");
  }

  @Test
  void aBackupLabelOrASignalFileRunsItAfterACleanShutdown() throws IOException {
    assertEquals("it holds a backup_label", start(ControlFile.DB_SHUTDOWNED, "backup_label").cause());
    Files.delete(dir.resolve("backup_label"));
    assertEquals("it holds a standby.signal", start(ControlFile.DB_SHUTDOWNED, "standby.signal").cause());
    Files.delete(dir.resolve("standby.signal"));
    assertEquals("it holds a recovery.signal", start(ControlFile.DB_SHUTDOWNED, "recovery.signal").cause());
  }
}
