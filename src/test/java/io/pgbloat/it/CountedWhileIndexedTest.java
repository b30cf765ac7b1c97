package io.pgbloat.it;

import static io.pgbloat.page.PageHeader.BLCKSZ;
import static io.pgbloat.page.PageHeader.PD_CHECKSUM_OFFSET;
import static io.pgbloat.page.PageHeader.PD_SPECIAL_OFFSET;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.testing.ToolRun;
import io.pgbloat.testing.VersionSample;
import java.io.IOException;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import java.util.zip.GZIPOutputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A full scan of a compressed tar backup counts its pages as the archive decodes to be indexed,
 * before the catalog, the commit log, PG_VERSION and pg_control are known. Each shipped sample
 * (every version, so both free-space rules) is archived with its relation files first and
 * pg_control last, and a few of its pages damaged: the backup's full scan must give what the
 * directory's gives, figure for figure, warning for warning, with no task left to read a
 * relation again. Once with the sample's checksums (the damaged pages are bad), once with
 * pg_control saying there are none (they are counted).
 */
class CountedWhileIndexedTest {
  /** pg_control: data_checksum_version, and where the CRC over what precedes it lies (13-17, 18). */
  private static final int DATA_CHECKSUM_VERSION = 252;

  static List<Integer> majors() {
    List<Integer> majors = new ArrayList<>(VersionSample.MAJORS);
    majors.add(15); // the main sample
    return majors;
  }

  @ParameterizedTest(name = "PostgreSQL {0}")
  @MethodSource("majors")
  void theBackupsFullScanIsTheDirectorysWithChecksums(int major, @TempDir Path dir) throws IOException {
    assertSameAnswers(major, dir, true);
  }

  @ParameterizedTest(name = "PostgreSQL {0}")
  @MethodSource("majors")
  void theBackupsFullScanIsTheDirectorysWithoutChecksums(int major, @TempDir Path dir) throws IOException {
    assertSameAnswers(major, dir, false);
  }

  private static void assertSameAnswers(int major, Path dir, boolean checksums) throws IOException {
    Path pgdata = dir.resolve("pgdata");
    copy(major == 15 ? Path.of("sample", "pgdata") : new VersionSample(major).dataDir(), pgdata);
    List<Path> damaged = damageChecksums(pgdata);
    if (!checksums) {
      turnChecksumsOff(pgdata, major);
    }
    Path backup = Files.createDirectories(dir.resolve("backup"));
    archive(pgdata, backup.resolve("base.tar.gz"));

    ToolRun fromDirectory = run(pgdata, dir.resolve("directory-indexes.csv"), dir.resolve("directory-metrics.json"));
    ToolRun fromBackup = run(backup, dir.resolve("backup-indexes.csv"), dir.resolve("backup-metrics.json"));
    int status = checksums ? 1 : 0; // bad pages: the report is complete but for them
    assertEquals(status, fromDirectory.status(), fromDirectory.describe());
    assertEquals(status, fromBackup.status(), fromBackup.describe());
    assertEquals(fromDirectory.out(), fromBackup.out(), "the tables' report");
    assertEquals(Files.readString(dir.resolve("directory-indexes.csv")), Files.readString(dir.resolve("backup-indexes.csv")),
        "the indexes' report");
    assertEquals(fromDirectory.err().replace(pgdata.toString(), "DIR"), fromBackup.err()
        .replace(backup.toString(), "DIR").lines().filter(l -> !l.contains("archives are compressed"))
        .map(l -> l + "\n").reduce("", String::concat), "the warnings and findings");
    String metrics = Files.readString(dir.resolve("backup-metrics.json"));
    assertTrue(metrics.contains("\"ranges\": 0,"), () -> "a task read a relation again: " + metrics);
    if (checksums) {
      for (Path page : damaged) {
        String relpath = pgdata.relativize(page).toString();
        assertTrue(fromBackup.err().contains(relpath + ") block 1: checksum mismatch"),
            () -> relpath + "'s damaged block is not reported:\n" + fromBackup.err());
      }
    }
  }

  /**
   * Damage in a database the run does not read (every page of two of postgres's catalogs, more
   * pages than a range keeps findings for) takes nothing from the findings of the one it reads:
   * the damaged block of shop's largest table is named with its checksums, as from the directory.
   */
  @org.junit.jupiter.api.Test
  void damageElsewhereLeavesTheFindingsOfTheRelationsRead(@TempDir Path dir) throws IOException {
    Path pgdata = dir.resolve("pgdata");
    copy(Path.of("sample", "pgdata"), pgdata);
    for (String catalog : List.of("1255", "1249")) { // pg_proc, pg_attribute
      Path file = pgdata.resolve("base").resolve("5").resolve(catalog);
      try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
        for (long at = PD_CHECKSUM_OFFSET; at < f.length(); at += BLCKSZ) {
          f.seek(at);
          int b = f.read();
          f.seek(at);
          f.write(b ^ 0x5A);
        }
      }
    }
    Path table = damageChecksums(pgdata).get(0);
    Path backup = Files.createDirectories(dir.resolve("backup"));
    archive(pgdata, backup.resolve("base.tar.gz"));
    ToolRun fromDirectory = ToolRun.of("analyze", "--data-dir", pgdata.toString(), "--database", "shop", "--full-scan",
        "--format", "csv");
    ToolRun fromBackup = ToolRun.of("analyze", "--data-dir", backup.toString(), "--database", "shop", "--full-scan",
        "--format", "csv");
    assertEquals(fromDirectory.out(), fromBackup.out());
    assertEquals(fromDirectory.err().replace(pgdata.toString(), "DIR"), fromBackup.err().replace(backup.toString(), "DIR")
        .lines().filter(l -> !l.contains("archives are compressed")).map(l -> l + "\n").reduce("", String::concat));
    String relpath = pgdata.relativize(table).toString();
    assertTrue(fromBackup.err().contains(relpath + ") block 1: checksum mismatch: page has "), fromBackup.err());
  }

  /**
   * A table whose first page reads as a btree's (its special space made a btree's) cannot be
   * settled: the catalog says heap. A task reads it, decoding the archive again, beside the
   * relations the pass settled; the report is still the directory's.
   */
  @org.junit.jupiter.api.Test
  void aRelationThePassCannotSettleIsReadByATask(@TempDir Path dir) throws IOException {
    Path pgdata = dir.resolve("pgdata");
    copy(Path.of("sample", "pgdata"), pgdata);
    Path table = largest(pgdata, true);
    try (RandomAccessFile f = new RandomAccessFile(table.toFile(), "rw")) {
      byte[] page = new byte[BLCKSZ];
      f.readFully(page);
      ByteBuffer b = ByteBuffer.wrap(page).order(ByteOrder.LITTLE_ENDIAN);
      b.putShort(PD_SPECIAL_OFFSET, (short) (BLCKSZ - 16)); // BTPageOpaqueData's size, btpo_cycleid 0
      b.putShort(PD_CHECKSUM_OFFSET, (short) 0);
      f.seek(0);
      f.write(page);
    }
    turnChecksumsOff(pgdata, 15);
    Path backup = Files.createDirectories(dir.resolve("backup"));
    archive(pgdata, backup.resolve("base.tar.gz"));
    ToolRun fromDirectory = run(pgdata, dir.resolve("directory-indexes.csv"), dir.resolve("directory-metrics.json"));
    ToolRun fromBackup = run(backup, dir.resolve("backup-indexes.csv"), dir.resolve("backup-metrics.json"));
    assertEquals(fromDirectory.status(), fromBackup.status(), fromBackup.describe());
    assertEquals(fromDirectory.out(), fromBackup.out(), "the tables' report");
    String metrics = Files.readString(dir.resolve("backup-metrics.json"));
    assertTrue(metrics.contains("\"ranges\": 1,"), () -> "no task read the table: " + metrics);
  }

  /**
   * A backup whose pages were all counted as it was indexed starts no Spark session for its
   * scan; one written as Parquet still gets one, for the write.
   */
  @org.junit.jupiter.api.Test
  void aCountedBackupWrittenAsParquetStartsSparkForTheWrite(@TempDir Path dir) throws IOException {
    Path backup = Files.createDirectories(dir.resolve("backup"));
    archive(Path.of("sample", "pgdata"), backup.resolve("base.tar.gz"));
    Path parquet = dir.resolve("report.parquet");
    ToolRun run = ToolRun.of("analyze", "--data-dir", backup.toString(), "--full-scan", "--format", "parquet",
        "--output", parquet.toString(), "--metrics-out", dir.resolve("metrics.json").toString(), "--master", "local[2]");
    assertEquals(0, run.status(), run.describe());
    assertTrue(Files.readString(dir.resolve("metrics.json")).contains("\"ranges\": 0,"));
    try (Stream<Path> files = Files.list(parquet)) {
      assertTrue(files.anyMatch(p -> p.getFileName().toString().endsWith(".parquet")), "no Parquet file in " + parquet);
    }
  }

  private static ToolRun run(Path dataDir, Path indexes, Path metrics) {
    return ToolRun.of("analyze", "--data-dir", dataDir.toString(), "--full-scan", "--indexes", "--format", "csv",
        "--index-output", indexes.toString(), "--metrics-out", metrics.toString(), "--master", "local[2]");
  }

  /** Flips pd_checksum on block 1 of the largest table and the largest index of the first database. */
  private static List<Path> damageChecksums(Path pgdata) throws IOException {
    List<Path> damaged = new ArrayList<>();
    for (boolean heap : new boolean[] {true, false}) {
      Path largest = largest(pgdata, heap);
      try (RandomAccessFile f = new RandomAccessFile(largest.toFile(), "rw")) {
        f.seek(BLCKSZ + PD_CHECKSUM_OFFSET);
        int b = f.read();
        f.seek(BLCKSZ + PD_CHECKSUM_OFFSET);
        f.write(b ^ 0x5A);
      }
      damaged.add(largest);
    }
    return damaged;
  }

  /** The largest user relation file of the databases, a table's if {@code heap}, else an index's. */
  private static Path largest(Path pgdata, boolean heap) throws IOException {
    try (Stream<Path> files = Files.walk(pgdata.resolve("base"))) {
      return files.filter(Files::isRegularFile).filter(p -> p.getFileName().toString().matches("\\d{5,}"))
          .filter(p -> isHeap(p) == heap)
          .max(Comparator.comparingLong(CountedWhileIndexedTest::size)).orElseThrow();
    }
  }

  /** Whether the relation file at {@code p} has two pages or more, the first a heap page's (pd_special = BLCKSZ). */
  private static boolean isHeap(Path p) {
    try {
      byte[] page = Files.readAllBytes(p);
      return page.length >= 2 * BLCKSZ && ByteBuffer.wrap(page).order(ByteOrder.LITTLE_ENDIAN).getShort(PD_SPECIAL_OFFSET) == BLCKSZ;
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static long size(Path p) {
    try {
      return Files.size(p) < 2 * BLCKSZ ? -1 : Files.size(p);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** Sets data_checksum_version to 0 and the CRC to match (ControlFile's layout). */
  private static void turnChecksumsOff(Path pgdata, int major) throws IOException {
    Path control = pgdata.resolve("global").resolve("pg_control");
    byte[] bytes = Files.readAllBytes(control);
    ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    b.putInt(DATA_CHECKSUM_VERSION, 0);
    int crcOffset = major >= 18 ? 292 : 288;
    CRC32C crc = new CRC32C();
    crc.update(bytes, 0, crcOffset);
    b.putInt(crcOffset, (int) crc.getValue());
    Files.write(control, bytes);
  }

  /**
   * A base.tar.gz of {@code pgdata} as pg_basebackup could order it at worst: the relation
   * files first (the catalogs' last among them), then the rest, pg_control last.
   */
  private static void archive(Path pgdata, Path target) throws IOException {
    List<Path> all;
    try (Stream<Path> files = Files.walk(pgdata)) {
      all = new ArrayList<>(files.filter(p -> !p.equals(pgdata)).toList());
    }
    all.sort(Comparator.comparing((Path p) -> rank(pgdata.relativize(p).toString()))
        .thenComparing(Comparator.comparing((Path p) -> pgdata.relativize(p).toString()).reversed()));
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(target));
        TarArchiveOutputStream tar = new TarArchiveOutputStream(out)) {
      for (Path p : all) {
        String name = pgdata.relativize(p).toString() + (Files.isDirectory(p) ? "/" : "");
        TarArchiveEntry entry = new TarArchiveEntry(p.toFile(), name);
        tar.putArchiveEntry(entry);
        if (Files.isRegularFile(p)) {
          Files.copy(p, tar);
        }
        tar.closeArchiveEntry();
      }
    }
  }

  /** Relation files of databases first, pg_control last, the rest between. */
  private static int rank(String path) {
    return path.equals("global/pg_control") ? 2 : path.matches("base/\\d+/\\d+(\\.\\d+)?") ? 0 : 1;
  }

  private static void copy(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path p : files.toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    }
  }
}
