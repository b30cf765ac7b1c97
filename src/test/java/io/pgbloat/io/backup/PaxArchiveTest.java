package io.pgbloat.io.backup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.io.store.LocalFileStore;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pax extended headers, as Python's tarfile writes them before Barman's members (written here by
 * commons-compress's writer in its POSIX modes): a path past the ustar name's 100 bytes, and
 * records the reader skips (mtime); the archive's top named ".".
 */
class PaxArchiveTest {
  @TempDir
  Path temp;

  private static final String LONG_NAME = "pg_tblspc/16384/PG_15_202209061/5/" + "d".repeat(90) + "/16390";

  private static byte[] archive() throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (TarArchiveOutputStream tar = new TarArchiveOutputStream(bytes)) {
      tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
      TarArchiveEntry top = new TarArchiveEntry(".", TarArchiveEntry.LF_DIR);
      tar.putArchiveEntry(top);
      tar.closeArchiveEntry();
      add(tar, "./PG_VERSION", "15\n", Map.of("mtime", "1796316786.691893"));
      add(tar, LONG_NAME, "x".repeat(700), Map.of());
      add(tar, "global/pg_control", "control", Map.of());
    }
    return bytes.toByteArray();
  }

  private static void add(TarArchiveOutputStream tar, String name, String content, Map<String, String> pax)
      throws IOException {
    byte[] data = content.getBytes(StandardCharsets.US_ASCII);
    TarArchiveEntry entry = new TarArchiveEntry(name);
    entry.setSize(data.length);
    pax.forEach(entry::addPaxHeader);
    tar.putArchiveEntry(entry);
    tar.write(data);
    tar.closeArchiveEntry();
  }

  @Test
  void indexedAndScannedMembersTakeTheirPathsFromPaxRecords() throws IOException {
    byte[] archive = archive();
    assertTrue(new String(archive, StandardCharsets.ISO_8859_1).contains("path=" + LONG_NAME), "a pax path record");
    Files.write(temp.resolve("data.tar"), archive);
    List<TarArchive.Member> indexed;
    try (LocalFileStore dir = LocalFileStore.open(temp.toString())) {
      indexed = TarArchive.index(dir, "data.tar");
    }
    List<TarArchive.Member> scanned = TarArchive.scan(new ByteArrayInputStream(archive), "data.tar",
        new TarArchive.Keeper() {
          @Override
          public boolean keeps(TarArchive.Member member) {
            return false;
          }

          @Override
          public void kept(TarArchive.Member member, byte[] bytes) {}
        });
    assertEquals(indexed, scanned);
    assertEquals(List.of("", "PG_VERSION", LONG_NAME, "global/pg_control"),
        indexed.stream().map(TarArchive.Member::name).toList());
    assertEquals(List.of(0L, 3L, 700L, 7L), indexed.stream().map(TarArchive.Member::size).toList());
    TarArchive.Member longOne = indexed.get(2);
    assertEquals("x".repeat(700), new String(archive, (int) longOne.offset(), 700, StandardCharsets.US_ASCII));
  }

  @Test
  void paxRecordsGivePathAndSizeAndRefuseDamage() throws ArchiveException {
    byte[] records = "27 mtime=1796316786.691893\n13 size=4096\n14 path=a/b/c\n".getBytes(StandardCharsets.UTF_8);
    assertEquals(new PaxRecords("a/b/c", 4096), PaxRecords.parse(records, "x"));
    assertThrows(ArchiveException.class, () -> PaxRecords.parse("99 path=a\n".getBytes(), "x"));
    assertThrows(ArchiveException.class, () -> PaxRecords.parse("10 patha\n".getBytes(), "x"));
    assertThrows(ArchiveException.class, () -> PaxRecords.parse("11 size=-1\n".getBytes(), "x"));
  }
}
