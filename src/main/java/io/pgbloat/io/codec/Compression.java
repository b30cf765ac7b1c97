package io.pgbloat.io.codec;

import com.github.luben.zstd.ZstdInputStream;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Optional;
import java.util.zip.GZIPInputStream;
import java.util.List;
import org.apache.commons.compress.compressors.bzip2.BZip2CompressorInputStream;
import org.apache.commons.compress.compressors.snappy.FramedSnappyCompressorInputStream;

/**
 * How a backup's file is compressed, by the suffix its writer gives it: pgBackRest's
 * compress-type (src/common/compress/helper.c: gz, lz4, zst, bz2), pg_basebackup's -z and
 * --compress (src/bin/pg_basebackup: .gz, .lz4, .zst) and barman-cloud-backup's --gzip,
 * --bzip2 and --snappy (barman/cloud.py, CloudUploadController._build_dest_name: .gz, .bz2,
 * .snappy). The decoders: zlib through the JDK, zstd-jni, commons-compress for bzip2 and snappy
 * (all on Spark's class path), and our own reader of LZ4 frames ({@link Lz4FrameInputStream}).
 */
public enum Compression {
  NONE(""),
  GZIP(".gz"),
  LZ4(".lz4"),
  ZSTD(".zst"),
  BZIP2(".bz2"),
  /**
   * Snappy's framing format (a stream identifier, then chunks of at most 64 kB each with a
   * masked CRC-32C), as python-snappy's StreamCompressor writes it for Barman
   * (barman/clients/cloud_compression.py, SnappyCompressor); not Hadoop's block form.
   */
  SNAPPY(".snappy");

  /** pgBackRest's compress-types beside "none" (src/common/compress/helper.c): its suffixes without the dot. */
  private static final List<Compression> PGBACKREST_TYPES = List.of(GZIP, LZ4, ZSTD, BZIP2);

  /** The decoders' read buffer, and the compressed input's: few, large reads of the store. */
  private static final int BUFFER = 1 << 16;
  private static final int INPUT_BUFFER = 1 << 20;

  private final String suffix;

  Compression(String suffix) {
    this.suffix = suffix;
  }

  /** What a compressed file's name ends with; "" for none. */
  public String suffix() {
    return suffix;
  }

  /** pgBackRest's compress-type name ("none", "gz", "lz4", "zst", "bz2"), if it is one. */
  public static Optional<Compression> ofPgBackRestType(String type) {
    return type.equals("none") ? Optional.of(NONE)
        : PGBACKREST_TYPES.stream().filter(c -> c.suffix.substring(1).equals(type)).findFirst();
  }

  /**
   * The decoded bytes of {@code compressed} (read in large pieces), which the stream returned
   * owns; closed here if the decoder cannot be made (gzip's and bzip2's read their header), so
   * that a thread reading it ahead stops.
   */
  public InputStream decoder(InputStream compressed) throws IOException {
    try {
      return decoderOf(new BufferedInputStream(compressed, INPUT_BUFFER));
    } catch (IOException | RuntimeException e) {
      compressed.close();
      throw e;
    }
  }

  private InputStream decoderOf(InputStream in) throws IOException {
    return switch (this) {
      case NONE -> in;
      case GZIP -> new GZIPInputStream(in, BUFFER);
      // our own: lz4-java's frame reader refuses linked blocks, which PostgreSQL writes
      // (src/backend/backup/basebackup_lz4.c zeroes its LZ4F_preferences_t: LZ4F_blockLinked),
      // and commons-compress's decodes them at a few dozen MB/s
      case LZ4 -> new Lz4FrameInputStream(in);
      case ZSTD -> new ZstdInputStream(in);
      case BZIP2 -> new BZip2CompressorInputStream(in);
      case SNAPPY -> new FramedSnappyCompressorInputStream(in); // checks each chunk's CRC-32C
    };
  }
}
