package io.pgbloat.bench;

import io.pgbloat.testing.S3Server;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * An S3 server for the benchmarks, in a JVM of its own: {@link S3Server} with a fixed delay
 * before each response, its bucket holding local trees: linked in place over a local directory
 * (the server serves the files of its bucket directory as objects; S3A then needs
 * {@code fs.s3a.change.detection.version.required=false}, as they have no ETag), or uploaded
 * into memory (STORE "memory"), which lists a large prefix as fast as S3 does. Prints its
 * endpoint, then for each line "count" on its standard input the requests made so far
 * ({@code GET=n HEAD=n LIST=n}); stops when its input closes. Used by {@code bench/remote-stores.sh}.
 *
 * <p>usage: S3ProxyServer WORKDIR DELAY_MS files|memory BUCKET NAME=LOCAL_TREE...  (each tree as BUCKET/NAME)
 */
public final class S3ProxyServer {
  private S3ProxyServer() {}

  public static void main(String[] args) throws Exception {
    Duration delay = Duration.ofMillis(Long.parseLong(args[1]));
    boolean inMemory = args[2].equals("memory");
    try (S3Server s3 = inMemory ? S3Server.startInMemory(Path.of(args[0]), delay) : S3Server.start(Path.of(args[0]), delay)) {
      String bucket = args[3];
      s3.createBucket(bucket);
      for (int i = 4; i < args.length; i++) {
        String[] tree = args[i].split("=", 2);
        if (inMemory) {
          s3.upload(Path.of(tree[1]), bucket, tree[0]);
          continue;
        }
        Process link = new ProcessBuilder("cp", "-al", tree[1], s3.bucketDirectory(bucket).resolve(tree[0]).toString())
            .inheritIO().start();
        if (link.waitFor() != 0 || !Files.isDirectory(s3.bucketDirectory(bucket).resolve(tree[0]))) {
          throw new IllegalStateException("cannot link " + tree[1] + " into the bucket");
        }
      }
      System.out.println(s3.endpoint());
      System.out.flush();
      BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        if (line.strip().equals("count")) {
          System.out.println(s3.requests());
          System.out.flush();
        }
      }
    }
  }
}
