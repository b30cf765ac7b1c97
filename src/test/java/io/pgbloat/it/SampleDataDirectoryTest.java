package io.pgbloat.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.cli.Main;
import io.pgbloat.testing.SampleData;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The shipped sample data directory, analyzed with no server: every column of every relation
 * equals what pgstattuple said on the server that made it. The sample was copied before any
 * truth scan, so most of its tuples have no hint bits and pg_xact/pg_multixact decide.
 */
class SampleDataDirectoryTest {

  @Test
  void fullScanEqualsPgstattupleOnEveryRelation() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = Main.run(new String[] {"analyze", "--data-dir", SampleData.dataDir().toString(), "--full-scan",
        "--format", "csv", "--master", "local[2]"}, new PrintStream(out, true), new PrintStream(err, true));
    String stderr = err.toString(StandardCharsets.UTF_8);
    assertEquals(0, status, stderr);
    assertEquals("", stderr);
    List<String> differences = Report.differences(SampleData.pgstattuple(), out.toString(StandardCharsets.UTF_8));
    assertTrue(differences.isEmpty(), () -> String.join("\n", differences));
  }
}
