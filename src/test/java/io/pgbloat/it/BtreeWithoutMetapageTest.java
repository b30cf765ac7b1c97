package io.pgbloat.it;

import static io.pgbloat.page.PageHeader.BLCKSZ;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.pgbloat.testing.Csv;
import io.pgbloat.testing.SampleData;
import io.pgbloat.testing.ToolRun;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A btree index whose metapage is gone (block 0 zeroed, as a crash that never wrote it leaves
 * it): block 0 is a bad page, reported and counted (exit 1), the index is still reported, and
 * its pgstatindex fields that come from the metapage (version, tree_level, root_block_no) read 0.
 */
class BtreeWithoutMetapageTest {
  private static final String INDEX = "orders_pkey";

  @Test
  void itsMetapageFieldsReadZero(@TempDir Path tmp) throws IOException {
    Path data = SampleData.copyTo(tmp.resolve("pgdata"));
    Map<String, String> before = orders(report(data, tmp.resolve("before.csv"), 0));
    assertEquals("4", before.get("version"), "the sample's index before: " + before);
    try (RandomAccessFile file = new RandomAccessFile(data.resolve(before.get("relpath")).toFile(), "rw")) {
      file.write(new byte[BLCKSZ]);
    }

    Map<String, String> after = orders(report(data, tmp.resolve("after.csv"), 1));
    assertEquals("0", after.get("version"), after.toString());
    assertEquals("0", after.get("tree_level"), after.toString());
    assertEquals("0", after.get("root_block_no"), after.toString());
    assertEquals(before.get("index_size"), after.get("index_size"));
    assertEquals(before.get("leaf_pages"), after.get("leaf_pages"), "the leaves are still counted");
    assertEquals("1", after.get("bad_pages"), after.toString());
  }

  private static String report(Path data, Path indexes, int status) throws IOException {
    ToolRun run = ToolRun.of("analyze", "--data-dir", data.toString(), "--full-scan", "--database", "shop",
        "--indexes", "--format", "csv", "--index-output", indexes.toString(), "--master", "local[1]", "--quiet");
    assertEquals(status, run.status(), run.describe());
    return Files.readString(indexes);
  }

  private static Map<String, String> orders(String csv) {
    return Csv.parseWithHeader(csv).stream().filter(r -> r.get("relname").equals(INDEX)).findFirst().orElseThrow();
  }
}
