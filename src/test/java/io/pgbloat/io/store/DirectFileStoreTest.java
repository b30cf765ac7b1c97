package io.pgbloat.io.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.testing.Requirement;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * O_DIRECT reads on the file systems a data directory may live on: a disk file system reads
 * direct, tmpfs (which refuses O_DIRECT at open) reads buffered, and both give the bytes a
 * buffered read gives; a file that is really unreadable still fails. A driver's store reads only
 * streams direct, its blocks through its delegate.
 */
class DirectFileStoreTest {
  private static final Path SHM = Path.of("/dev/shm");

  @TempDir Path disk;

  private static byte[] blocks(int count) {
    byte[] bytes = new byte[count * 8192];
    new Random(7).nextBytes(bytes);
    return bytes;
  }

  private static void readsLikeBuffered(Path root) throws IOException {
    byte[] file = blocks(6);
    Files.write(root.resolve("rel"), file);
    try (FileStore direct = DirectFileStore.open(HadoopFileStore.open(root.toString(), new Configuration()))) {
      byte[] got = new byte[3 * 8192];
      direct.readFully("rel", 2 * 8192, got, 0, got.length);
      assertArrayEquals(java.util.Arrays.copyOfRange(file, 2 * 8192, 5 * 8192), got, root.toString());
      byte[] odd = new byte[100];
      direct.readFully("rel", 8192 + 7, odd, 0, odd.length); // unaligned: read buffered
      assertArrayEquals(java.util.Arrays.copyOfRange(file, 8192 + 7, 8192 + 107), odd);
      // into the store's own buffer (direct, aligned: no copy where O_DIRECT works), at a block
      // offset inside it, and into a heap buffer
      ByteBuffer own = direct.allocate(4 * 8192);
      direct.readFully("rel", 2 * 8192, own.slice(8192, 3 * 8192));
      byte[] fromOwn = new byte[3 * 8192];
      own.get(8192, fromOwn);
      assertArrayEquals(java.util.Arrays.copyOfRange(file, 2 * 8192, 5 * 8192), fromOwn, root.toString());
      ByteBuffer heap = ByteBuffer.allocate(3 * 8192);
      direct.readFully("rel", 3 * 8192, heap);
      assertArrayEquals(java.util.Arrays.copyOfRange(file, 3 * 8192, 6 * 8192), heap.array());
      direct.release("rel");
      direct.readFully("rel", 0, got, 0, got.length); // opened again after a release
      assertArrayEquals(java.util.Arrays.copyOfRange(file, 0, 3 * 8192), got);
    }
  }

  @Test
  void aDiskFileSystemReadsDirect() throws IOException {
    readsLikeBuffered(disk);
  }

  @Test
  void tmpfsRefusesODirectAndIsReadBuffered() throws IOException {
    Requirement.require(Files.isDirectory(SHM) && "tmpfs".equals(Files.getFileStore(SHM).type()) ? ""
        : SHM + " is not a tmpfs here");
    Path root = Files.createTempDirectory(SHM, "pgbloat-direct");
    try {
      readsLikeBuffered(root);
    } finally {
      Files.deleteIfExists(root.resolve("rel"));
      Files.delete(root);
    }
  }

  @Test
  void forStreamsReadsBlocksThroughItsDelegateAndStreamsDirect() throws IOException {
    byte[] file = blocks(256); // 2 MB
    Files.write(disk.resolve("archive"), file);
    int[] delegated = new int[1];
    FileStore hadoop = HadoopFileStore.open(disk.toString(), new Configuration());
    FileStore counting = new FileStore() {
      @Override
      public String root() {
        return hadoop.root();
      }

      @Override
      public long length(String path) throws IOException {
        return hadoop.length(path);
      }

      @Override
      public boolean isDirectory(String path) throws IOException {
        return hadoop.isDirectory(path);
      }

      @Override
      public java.util.List<String> list(String path) throws IOException {
        return hadoop.list(path);
      }

      @Override
      public void readFully(String path, long position, byte[] buffer, int offset, int length) throws IOException {
        delegated[0]++;
        hadoop.readFully(path, position, buffer, offset, length);
      }

      @Override
      public void close() throws IOException {
        hadoop.close();
      }
    };
    try (FileStore streams = DirectFileStore.forStreams(counting)) {
      byte[] block = new byte[8192];
      streams.readFully("archive", 8192, block, 0, block.length);
      assertEquals(1, delegated[0], "a block read went past the delegate");
      byte[] chunk = new byte[1 << 20];
      streams.readStreamed("archive", 1 << 20, chunk, 0, chunk.length);
      assertEquals(1, delegated[0], "a stream's aligned read went through the delegate, not direct");
      assertArrayEquals(java.util.Arrays.copyOfRange(file, 8192, 2 * 8192), block);
      assertArrayEquals(java.util.Arrays.copyOfRange(file, 1 << 20, 2 << 20), chunk);
    }
  }

  @Test
  void aMissingFileStillFails() throws IOException {
    try (FileStore direct = DirectFileStore.open(HadoopFileStore.open(disk.toString(), new Configuration()))) {
      assertThrows(IOException.class, () -> direct.readFully("nosuch", 0, new byte[8192], 0, 8192));
    }
    assertTrue(Files.notExists(disk.resolve("nosuch")));
  }
}
