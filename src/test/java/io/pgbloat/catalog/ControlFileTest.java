package io.pgbloat.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.error.DataDirectoryException;
import io.pgbloat.testing.PgControlData;
import io.pgbloat.testing.SampleData;
import java.io.IOException;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;

/** pg_control decoded here against pg_controldata's reading of the same file. */
class ControlFileTest {

  private static String field(String name) {
    return PgControlData.field(SampleData.controlData(), name);
  }

  private static byte[] sampleBytes() throws IOException {
    return Files.readAllBytes(SampleData.dataDir().resolve("global/pg_control"));
  }

  @Test
  void fieldsEqualPgControldata() throws IOException {
    ControlFile control = ControlFile.parse(sampleBytes(), ControlFile.Format.PG13, 15);
    assertEquals(Long.parseLong(field("Catalog version number")), control.catalogVersion());
    assertEquals(field("Database cluster state"), control.stateName());
    assertEquals(field("Latest checkpoint's NextXID").replaceFirst("^\\d+:", ""),
        Integer.toUnsignedString(control.nextXid()));
    assertEquals(field("Latest checkpoint's NextMultiXactId"), Integer.toUnsignedString(control.nextMulti()));
    assertEquals(field("Latest checkpoint's NextMultiOffset"), Integer.toUnsignedString(control.nextMultiOffset()));
    assertEquals(field("Latest checkpoint's oldestActiveXID"), Integer.toUnsignedString(control.oldestActiveXid()));
    assertEquals(field("Database block size"), Integer.toString(control.blockSize()));
    assertEquals(field("Blocks per segment of large relation"), Integer.toString(control.segmentBlocks()));
    assertEquals(field("Data page checksum version"), Integer.toString(control.dataChecksumVersion()));
    assertTrue(control.cleanlyShutDown());
  }

  @Test
  void rejectsDamagedControlFile() throws IOException {
    byte[] bytes = sampleBytes();
    bytes[100] ^= 0x01;
    DataDirectoryException e = assertThrows(DataDirectoryException.class, () -> ControlFile.parse(bytes, ControlFile.Format.PG13, 15));
    assertTrue(e.getMessage().startsWith("Cannot read global/pg_control: CRC mismatch"), e.getMessage());
  }
}
