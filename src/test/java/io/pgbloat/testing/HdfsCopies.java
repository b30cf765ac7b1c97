package io.pgbloat.testing;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.apache.hadoop.fs.FileSystem;

/** Local trees copied into an HDFS (a MiniDFSCluster's), for the tests and the benchmarks. */
public final class HdfsCopies {
  private HdfsCopies() {}

  /**
   * Copies the local tree {@code source} to {@code target} on {@code fs}, directories (empty
   * ones too) first, then the files on several threads: one by one, closing each file waits
   * for its block to be acknowledged.
   */
  public static void copyTree(FileSystem fs, Path source, org.apache.hadoop.fs.Path target) throws IOException {
    List<Path> files = new ArrayList<>();
    try (Stream<Path> tree = Files.walk(source)) {
      for (Path p : tree.toList()) {
        org.apache.hadoop.fs.Path dest = source.equals(p) ? target
            : new org.apache.hadoop.fs.Path(target, source.relativize(p).toString().replace(File.separatorChar, '/'));
        if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
          fs.mkdirs(dest);
        } else if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
          files.add(p);
        }
      }
    }
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<?>> copies = new ArrayList<>();
      for (Path file : files) {
        org.apache.hadoop.fs.Path dest =
            new org.apache.hadoop.fs.Path(target, source.relativize(file).toString().replace(File.separatorChar, '/'));
        copies.add(pool.submit(() -> {
          fs.copyFromLocalFile(false, true, new org.apache.hadoop.fs.Path(file.toUri()), dest);
          return null;
        }));
      }
      for (Future<?> copy : copies) {
        copy.get();
      }
    } catch (ExecutionException e) {
      throw new IOException("cannot copy " + source + " to HDFS", e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while copying " + source + " to HDFS", e);
    } finally {
      pool.shutdownNow();
    }
  }
}
