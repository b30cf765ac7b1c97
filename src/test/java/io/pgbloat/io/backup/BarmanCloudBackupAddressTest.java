package io.pgbloat.io.backup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A Barman Cloud address, and what is read of backup.info (barman/infofile.py's format). */
class BarmanCloudBackupAddressTest {
  @Test
  void anAddressNamesTheBucketTheServerAndMaybeTheBackup() {
    BarmanCloudBackup.Address a = BarmanCloudBackup.Address.parse("barman:s3a://bucket/prefix?server=main");
    assertEquals(new BarmanCloudBackup.Address("s3a://bucket/prefix", "main", null), a);
    assertEquals(new BarmanCloudBackup.Address("s3a://bucket/prefix", "main", "20261203T170015"),
        BarmanCloudBackup.Address.parse("barman:s3://bucket/prefix?backup=20261203T170015&server=main"),
        "s3:// as Barman spells it is read as s3a://");
    assertEquals(new BarmanCloudBackup.Address("/copy", "main", null),
        BarmanCloudBackup.Address.parse("barman:/copy?server=main&backup="));
    assertTrue(BarmanCloudBackup.Address.isOne("barman:/copy?server=main"));
    assertFalse(BarmanCloudBackup.Address.isOne("pgbackrest:/copy"));
  }

  @Test
  void anAddressWithoutServerOrWithAnUnknownParameterIsRefused() {
    IllegalArgumentException noServer = assertThrows(IllegalArgumentException.class,
        () -> BarmanCloudBackup.Address.parse("barman:/copy"));
    assertTrue(noServer.getMessage().startsWith("no server in barman:/copy; give barman:URL?server=NAME"),
        noServer.getMessage());
    IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
        () -> BarmanCloudBackup.Address.parse("barman:/copy?server=a&stanza=b"));
    assertTrue(unknown.getMessage().startsWith("unknown parameter 'stanza'"), unknown.getMessage());
    assertThrows(IllegalArgumentException.class, () -> BarmanCloudBackup.Address.parse("barman:?server=a"));
  }

  /** The fields as FieldListFile.save writes them: sorted, None for none, tablespaces as Python's repr. */
  @Test
  void backupInfoGivesStatusNameAndTablespaces() throws ArchiveException {
    BarmanBackupInfo info = BarmanBackupInfo.parse("""
        backup_label='START WAL LOCATION: 0/8000028 (file 000000010000000000000008)\\nLABEL: x=y\\n'
        backup_name=nightly
        error=None
        snapshots_info=None
        status=DONE
        tablespaces=[('ts', 16384, '/srv/ts'), ("it's", 16385, '/srv/a, (b)'), ('q\\'', 16390, "/x")]
        version=150018
        """.getBytes(StandardCharsets.UTF_8), "backup.info");
    assertTrue(info.isDone());
    assertEquals("nightly", info.name());
    assertEquals(List.of(16384L, 16385L, 16390L), info.tablespaces());
    assertFalse(info.snapshot());

    BarmanBackupInfo failed = BarmanBackupInfo.parse("""
        error=failure uploading data (boom)
        status=FAILED
        tablespaces=None
        """.getBytes(StandardCharsets.UTF_8), "backup.info");
    assertFalse(failed.isDone());
    assertEquals("failure uploading data (boom)", failed.error());
    assertEquals(List.of(), failed.tablespaces());
  }

  @Test
  void aDamagedBackupInfoIsRefused() {
    assertThrows(ArchiveException.class, () -> BarmanBackupInfo.parse("no equals sign\n".getBytes(), "backup.info"));
    assertThrows(ArchiveException.class, () -> BarmanBackupInfo.parse("version=150018\n".getBytes(), "backup.info"));
    assertThrows(ArchiveException.class, () -> BarmanBackupInfo.parse(
        "status=DONE\ntablespaces=[('ts', 'not an oid', '/x')]\n".getBytes(), "backup.info"));
  }

  /** Of an unlogged relation (one with an init fork) every other fork and segment goes; others stay. */
  @Test
  void recoveryRemovesTheOtherForksOfUnloggedRelations() {
    List<String> removed = UnloggedForks.removedByRecovery(List.of("base/5/16384", "base/5/16384.1",
        "base/5/16384_fsm", "base/5/16384_vm", "base/5/16384_init", "base/5/16385", "base/6/16384",
        "pg_tblspc/16390/PG_15_202209061/5/17000", "pg_tblspc/16390/PG_15_202209061/5/17000_init", "PG_VERSION"));
    assertEquals(List.of("base/5/16384", "base/5/16384.1", "base/5/16384_fsm", "base/5/16384_vm",
        "pg_tblspc/16390/PG_15_202209061/5/17000"), removed.stream().sorted().toList());
  }
}
