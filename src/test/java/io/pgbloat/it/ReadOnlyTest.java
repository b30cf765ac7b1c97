package io.pgbloat.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.pgbloat.testing.SampleData;
import io.pgbloat.testing.ToolRun;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The tool never writes into the data directory: every file's bytes and times are unchanged. */
class ReadOnlyTest {
  @TempDir Path temp;

  /** path → size, modification time and SHA-256 of every file, and every directory's time. */
  private static Map<String, String> snapshot(Path root) throws Exception {
    Map<String, String> state = new TreeMap<>();
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path p : (Iterable<Path>) paths::iterator) {
        BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        String digest = a.isRegularFile()
            ? HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(p))) : "";
        state.put(root.relativize(p).toString(), a.size() + " " + a.lastModifiedTime() + " " + digest);
      }
    }
    return state;
  }

  @Test
  void analyzingChangesNothing() throws Exception {
    Path dir = SampleData.copyTo(temp.resolve("pgdata"));
    Map<String, String> before = snapshot(dir);
    for (String[] args : new String[][] {
        {"analyze", "--data-dir", dir.toString(), "--full-scan", "--format", "csv", "--master", "local[2]"},
        {"analyze", "--data-dir", dir.toString(), "--sample-blocks", "10", "--direct-io", "--master", "local[2]"},
        {"analyze", "--data-dir", dir.toString(), "--target-rse", "0.05", "--format", "json", "--master", "local[1]"}}) {
      ToolRun run = ToolRun.of(args);
      assertEquals(0, run.status(), run.describe());
    }
    assertEquals(before, snapshot(dir));
  }
}
