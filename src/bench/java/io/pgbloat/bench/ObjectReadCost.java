package io.pgbloat.bench;

import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * A benchmark, not a test: the rate Hadoop's own client reads whole files at, the files split
 * among STREAMS threads each reading one file after another from start to end, in 8 MB reads
 * with the connector's sequential read policy: what a copy tool gets of the store, to set the
 * tool's full scan beside. Used by {@code bench/remote-stores.sh}.
 *
 * <p>usage: ObjectReadCost STREAMS FILE_URI... [-- HADOOP_KEY=VALUE...]
 */
public final class ObjectReadCost {
  private static final int READ_BYTES = 8 << 20;

  private ObjectReadCost() {}

  public static void main(String[] args) throws Exception {
    int streams = Integer.parseInt(args[0]);
    int split = Arrays.asList(args).indexOf("--");
    List<String> files = Arrays.asList(args).subList(1, split < 0 ? args.length : split);
    Configuration conf = new Configuration();
    if (split >= 0) {
      for (String kv : Arrays.asList(args).subList(split + 1, args.length)) {
        String[] pair = kv.split("=", 2);
        conf.set(pair[0], pair[1]);
      }
    }
    FileSystem fs = FileSystem.newInstance(URI.create(files.get(0)), conf);
    ExecutorService pool = Executors.newFixedThreadPool(streams);
    long started = System.nanoTime();
    List<Future<Long>> reads = new ArrayList<>();
    for (int s = 0; s < streams; s++) {
      int first = s;
      reads.add(pool.submit(() -> {
        long bytes = 0;
        byte[] buffer = new byte[READ_BYTES];
        for (int f = first; f < files.size(); f += streams) {
          try (FSDataInputStream in = fs.openFile(new Path(files.get(f)))
              .opt("fs.option.openfile.read.policy", "whole-file").build().get()) {
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
              bytes += n;
            }
          }
        }
        return bytes;
      }));
    }
    long bytes = 0;
    for (Future<Long> read : reads) {
      bytes += read.get();
    }
    double seconds = (System.nanoTime() - started) / 1e9;
    pool.shutdown();
    fs.close();
    System.out.printf("read %d files, %.1f MB in %.2f s with %d streams: %.1f MB/s%n", files.size(), bytes / 1e6,
        seconds, streams, bytes / 1e6 / seconds);
  }
}
