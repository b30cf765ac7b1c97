package io.pgbloat.io.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.error.NotADataDirectoryException;
import io.pgbloat.io.store.StoreSettings;
import io.pgbloat.testing.SampleData;
import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A local directory read through the JDK answers as Hadoop's local file system does: lengths,
 * listings, bytes, links followed (a tablespace's), a missing file or a read past the end as
 * Hadoop's errors; a path that is no URI is one line; a closed store opens nothing again.
 */
class LocalFileStoreTest {
  @TempDir Path dir;

  @Test
  void answersAsHadoopsLocalFileSystemOnTheSampleDirectory() throws IOException {
    String root = SampleData.dataDir().toString();
    try (FileStore local = LocalFileStore.open(root);
        FileStore hadoop = HadoopFileStore.open(root, StoreSettings.DEFAULT.configuration())) {
      for (String path : List.of("", "global", "base", "PG_VERSION", "global/pg_control", "nosuch")) {
        assertEquals(hadoop.length(path), local.length(path), path);
        assertEquals(hadoop.isDirectory(path), local.isDirectory(path), path);
      }
      for (String path : List.of("", "global", "base", "nosuch")) { // a file's entries are no one's concern
        assertEquals(new TreeSet<>(hadoop.list(path)), new TreeSet<>(local.list(path)), path);
      }
      assertArrayEquals(hadoop.readAll("global/pg_control"), local.readAll("global/pg_control"));
    }
  }

  @Test
  void followsLinksAndTellsAMissingFileFromAShortOne() throws IOException {
    Path elsewhere = Files.createDirectory(dir.resolve("elsewhere"));
    Files.write(elsewhere.resolve("16384"), new byte[8192]);
    Path root = Files.createDirectory(dir.resolve("root"));
    Files.createSymbolicLink(root.resolve("tablespace"), elsewhere);
    try (FileStore local = LocalFileStore.open(root.toUri().toString())) {
      assertTrue(local.isDirectory("tablespace"));
      assertEquals(List.of("16384"), local.list("tablespace"));
      assertEquals(8192, local.length("tablespace/16384"));
      assertEquals(-1, local.length("tablespace"));
      assertEquals(List.of(), local.list("nosuch"));
      assertFalse(local.isDirectory("nosuch"));
      byte[] page = new byte[8192];
      assertThrows(EOFException.class, () -> local.readFully("tablespace/16384", 4096, page, 0, page.length));
      assertThrows(FileNotFoundException.class, () -> local.readFully("nosuch", 0, page, 0, page.length));
      local.release("tablespace/16384");
      local.readFully("tablespace/16384", 0, page, 0, page.length); // opened again after a release
      local.close();
      assertThrows(java.nio.channels.ClosedChannelException.class,
          () -> local.readFully("tablespace/16384", 0, page, 0, page.length)); // a read-ahead thread's, late
    }
  }

  @Test
  void aPathThatIsNoUriIsOneLine() {
    NotADataDirectoryException e = assertThrows(NotADataDirectoryException.class,
        () -> LocalFileStore.open("file:///a data dir"));
    assertTrue(e.getMessage().startsWith("Cannot open data directory file:///a data dir: not a valid path or URI"),
        e.getMessage());
  }
}
