package io.pgbloat.bench;

import io.pgbloat.io.codec.Compression;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * A benchmark, not a test: the tool's decoder of a compressed file alone, in the thread that
 * calls it, nothing counted and nothing read ahead, repeated, so that its own speed shows
 * beside the codec's command. Used by {@code bench/decode-cost.sh}.
 *
 * <p>usage: DecodeCost ROUNDS FILE... (each file's codec by its suffix: .gz, .lz4, .zst, .bz2);
 * prints, for each round, the decoded bytes and its wall seconds (the JVM is not pinned: its JIT
 * and collector may use another core)
 */
public final class DecodeCost {
  /** The reads of decoded bytes: as large as a read-ahead chunk. */
  private static final int READ = 1 << 20;

  private DecodeCost() {}

  public static void main(String[] args) throws IOException {
    int rounds = Integer.parseInt(args[0]);
    byte[] buffer = new byte[READ];
    for (int round = 1; round <= rounds; round++) {
      long bytes = 0;
      long start = System.nanoTime();
      for (int f = 1; f < args.length; f++) {
        try (InputStream decoded = compressionOf(args[f]).decoder(new FileInputStream(args[f]))) {
          for (int n; (n = decoded.readNBytes(buffer, 0, READ)) > 0; ) {
            bytes += n;
          }
        }
      }
      System.out.printf(java.util.Locale.ROOT, "round %d: %d bytes in %.3f s%n", round, bytes, (System.nanoTime() - start) / 1e9);
    }
  }

  private static Compression compressionOf(String file) {
    return Arrays.stream(Compression.values()).filter(c -> c != Compression.NONE && file.endsWith(c.suffix()))
        .findFirst().orElseThrow(() -> new IllegalArgumentException(file + ": not .gz, .lz4, .zst or .bz2"));
  }
}
