package io.pgbloat.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The data directory shipped in {@code sample/} (made by {@code sample/make-sample.sh} with a
 * real PostgreSQL 15) and what that server said about it, under {@code sample/truth/}.
 */
public final class SampleData {
  private static final Path ROOT = Path.of("sample");

  private SampleData() {}

  /** sample/pgdata: a stopped cluster copied before any truth scan (hint bits mostly unset). */
  public static Path dataDir() {
    return ROOT.resolve("pgdata").toAbsolutePath();
  }

  /**
   * A real {@code pg_basebackup -Ft -z -X stream} of the sample (made by
   * sample/backups/make-backup-sample.sh): its relation files are the sample's.
   */
  public static Path compressedTarBackup() {
    return ROOT.resolve("backups").resolve("tar-gzip");
  }

  /**
   * A real pgBackRest repository (compress-type=zst, repo-bundle) holding a full backup of the
   * sample (made by sample/backups/make-backup-sample.sh), as a --data-dir address.
   */
  public static String pgBackRestBackup() {
    return "pgbackrest:" + ROOT.resolve("backups").resolve("pgbackrest-zst").toAbsolutePath();
  }

  /** How many files and directories a tree holds. */
  public record Shape(long files, long directories) {}

  /** The files and directories of {@link #dataDir()}, its root counted. */
  public static Shape dataDirShape() {
    try (java.util.stream.Stream<Path> tree = java.nio.file.Files.walk(dataDir())) {
      List<Path> all = tree.toList();
      long files = all.stream().filter(java.nio.file.Files::isRegularFile).count();
      return new Shape(files, all.size() - files);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** pgstattuple of every relation, in the report's CSV columns. */
  public static List<Map<String, String>> pgstattuple() {
    return Csv.parseWithHeader(read("truth/pgstattuple.csv"));
  }

  /** Page headers and line pointer counts of some tables' pages (pageinspect). */
  public static List<Map<String, String>> pages() {
    return Csv.parseWithHeader(read("truth/pages.csv"));
  }

  /** pg_controldata's output for the sample. */
  public static String controlData() {
    return read("truth/pg_controldata.txt");
  }

  /** Copies the sample into {@code target} (which must not exist), for tests that damage it. */
  public static Path copyTo(Path target) {
    DirectoryTrees.copy(dataDir(), target);
    return target;
  }

  private static String read(String name) {
    try {
      return Files.readString(ROOT.resolve(name), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
