package io.pgbloat.io.codec;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import net.jpountz.xxhash.StreamingXXHash32;
import net.jpountz.xxhash.XXHashFactory;

/**
 * The decoded bytes of LZ4 frames (the LZ4 Frame Format, v1.6, lz4/doc/lz4_Frame_format.md, and
 * the LZ4 Block Format, lz4_Block_format.md), linked blocks included: PostgreSQL's lz4 backups
 * link them, a block's matches reaching up to 64 kB back into the blocks before it, which
 * lz4-java's frame reader refuses and commons-compress's decodes at a few dozen MB/s. Frames may
 * follow one another and skippable frames are skipped. The header checksum, and the block and
 * content checksums when the frame has them, are checked (xxHash32, lz4-java's).
 */
final class Lz4FrameInputStream extends InputStream {
  /** Frame magic numbers (little-endian on the wire). */
  private static final int MAGIC = 0x184D2204;
  private static final int SKIPPABLE_MAGIC = 0x184D2A50;
  private static final int SKIPPABLE_MASK = 0xFFFFFFF0;
  /** FLG: version 01 in bits 7-6, and the flags below. */
  private static final int VERSION = 0x40;
  private static final int VERSION_MASK = 0xC0;
  private static final int BLOCK_INDEPENDENCE = 0x20;
  private static final int BLOCK_CHECKSUM = 0x10;
  private static final int CONTENT_SIZE = 0x08;
  private static final int CONTENT_CHECKSUM = 0x04;
  private static final int DICTIONARY_ID = 0x01;
  /** BD: the block maximum size's code in bits 6-4, 4 (64 kB) to 7 (4 MB). */
  private static final int MIN_BLOCK_CODE = 4;
  private static final int MAX_BLOCK_CODE = 7;
  /** A block's size field: its high bit says the block is stored uncompressed. */
  private static final int UNCOMPRESSED = 0x80000000;
  /** How far back a match reaches at most: the history a linked block may use. */
  private static final int HISTORY = 64 << 10;
  /** A match is at least this long (the block format's MINMATCH). */
  private static final int MIN_MATCH = 4;
  /**
   * Bytes decoded between two moves of the history, once a file has needed a move: the window
   * then holds the history and max(ROOM, a block).
   */
  private static final int ROOM = 1 << 20;
  /** An overlapping match this short is copied byte by byte; a longer one in doubling runs. */
  private static final int SHORT_MATCH = 32;

  /** xxHash32, seed 0, for the header, block and content checksums (lz4-java's fastest at hand). */
  private static final XXHashFactory XXHASH = XXHashFactory.fastestInstance();

  private final InputStream in;
  private final byte[] one = new byte[1];
  private final byte[] word = new byte[8];
  private byte[] compressed = new byte[0];
  /** The history then the block being read: {@code [0, start)} history, {@code [start, end)} decoded. */
  private byte[] window = new byte[0];
  private int start;
  private int position;
  private int end;
  private int maxBlock;
  private boolean linked;
  private boolean blockChecksum;
  private StreamingXXHash32 contentHash; // null when the frame has no content checksum
  private boolean inFrame;
  private boolean finished;

  Lz4FrameInputStream(InputStream in) {
    this.in = in;
  }

  @Override
  public int read() throws IOException {
    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
  }

  @Override
  public int read(byte[] buffer, int offset, int length) throws IOException {
    if (length == 0) {
      return 0;
    }
    while (position == end) {
      if (finished || !nextBlock()) {
        return -1;
      }
    }
    int n = Math.min(length, end - position);
    System.arraycopy(window, position, buffer, offset, n);
    position += n;
    return n;
  }

  @Override
  public void close() throws IOException {
    in.close();
  }

  /** Decodes the next block (reading a frame's header or end first); false at the end of the input. */
  private boolean nextBlock() throws IOException {
    if (!inFrame && !frameHeader()) {
      finished = true;
      return false;
    }
    int size = intLe(readFully(4));
    if (size == 0) { // the EndMark
      if (contentHash != null && intLe(readFully(4)) != contentHash.getValue()) {
        throw new IOException("LZ4 frame: the content checksum does not match: the stream is damaged");
      }
      inFrame = false;
      return true; // no bytes, but not the end: the caller reads on
    }
    boolean stored = (size & UNCOMPRESSED) != 0;
    size &= ~UNCOMPRESSED;
    if (size > maxBlock) {
      throw new IOException("LZ4 frame: a block of " + size + " bytes, more than the frame's maximum of " + maxBlock);
    }
    if (in.readNBytes(compressed, 0, size) < size) {
      throw new EOFException("LZ4 frame: the stream ends inside a block");
    }
    if (blockChecksum && intLe(readFully(4)) != XXHASH.hash32().hash(compressed, 0, size, 0)) {
      throw new IOException("LZ4 frame: a block's checksum does not match: the stream is damaged");
    }
    makeRoom();
    if (stored) {
      System.arraycopy(compressed, 0, window, start, size);
      end = start + size;
    } else {
      // an independent block's matches reach no further back than its own start
      end = decodeBlock(compressed, size, window, start, linked ? 0 : start);
      if (end - start > maxBlock) {
        throw new IOException("LZ4 frame: a block decodes to more than the frame's maximum of " + maxBlock);
      }
    }
    position = start;
    if (contentHash != null) {
      contentHash.update(window, start, end - start);
    }
    return true;
  }

  /** Reads a frame's header, skipping skippable frames; false at the end of the input. */
  private boolean frameHeader() throws IOException {
    while (true) {
      int got = in.readNBytes(word, 0, 4);
      if (got == 0) {
        return false;
      }
      if (got < 4) {
        throw new EOFException("LZ4 frame: the stream ends inside a frame's magic number");
      }
      int magic = intLe(word);
      if ((magic & SKIPPABLE_MASK) == SKIPPABLE_MAGIC) {
        in.skipNBytes(Integer.toUnsignedLong(intLe(readFully(4))));
        continue;
      }
      if (magic != MAGIC) {
        throw new IOException("not an LZ4 frame (magic " + Integer.toHexString(magic) + ")");
      }
      break;
    }
    byte[] descriptor = new byte[2 + 8];
    System.arraycopy(readFully(2), 0, descriptor, 0, 2);
    int flg = descriptor[0] & 0xFF;
    int code = (descriptor[1] >> 4) & 0x7;
    if ((flg & VERSION_MASK) != VERSION || code < MIN_BLOCK_CODE || code > MAX_BLOCK_CODE) {
      throw new IOException("LZ4 frame: version or block size not in the frame format");
    }
    int described = 2;
    if ((flg & CONTENT_SIZE) != 0) {
      System.arraycopy(readFully(8), 0, descriptor, 2, 8);
      described += 8;
    }
    if ((flg & DICTIONARY_ID) != 0) {
      throw new IOException("LZ4 frame: a dictionary is needed, which a backup never uses");
    }
    // HC: the second byte of the descriptor's xxHash32 (seed 0)
    int expected = (XXHASH.hash32().hash(descriptor, 0, described, 0) >> 8) & 0xFF;
    if ((readFully(1)[0] & 0xFF) != expected) {
      throw new IOException("LZ4 frame: the header's checksum does not match: the stream is damaged");
    }
    maxBlock = 1 << (8 + 2 * code);
    linked = (flg & BLOCK_INDEPENDENCE) == 0;
    blockChecksum = (flg & BLOCK_CHECKSUM) != 0;
    contentHash = (flg & CONTENT_CHECKSUM) != 0 ? XXHASH.newStreamingHash32(0) : null;
    if (compressed.length < maxBlock) {
      compressed = new byte[maxBlock];
    }
    if (window.length < HISTORY + maxBlock) {
      window = new byte[HISTORY + maxBlock]; // grown to ROOM at the first move: a small file needs no more
    }
    start = 0;
    end = 0;
    position = 0;
    inFrame = true;
    return true;
  }

  /**
   * Makes room for the next block after the last one. When the window has no room left for a
   * block, it grows once to {@link #ROOM}; after that, the last 64 kB decoded move to its start
   * (a linked block's matches reach back into them), once every ROOM bytes rather than once a
   * block.
   */
  private void makeRoom() {
    if (end + maxBlock > window.length && window.length < HISTORY + Math.max(ROOM, maxBlock)) {
      window = Arrays.copyOf(window, HISTORY + Math.max(ROOM, maxBlock));
    }
    if (end + maxBlock <= window.length) {
      start = end;
      return;
    }
    int kept = linked ? Math.min(HISTORY, end) : 0;
    System.arraycopy(window, end - kept, window, 0, kept);
    start = kept;
  }

  /**
   * Decodes one block (lz4_Block_format.md: sequences of a token, literals, a 2-byte offset
   * and a match) from {@code src[0, length)} into {@code dst} from {@code at}; returns where the
   * output ends. Matches may reach back before {@code at}, into the history, but not before
   * {@code floor}.
   */
  static int decodeBlock(byte[] src, int length, byte[] dst, int at, int floor) throws IOException {
    int ip = 0;
    int op = at;
    try {
      while (true) {
        int token = src[ip++] & 0xFF;
        int literals = token >>> 4;
        if (literals == 15) {
          int b;
          do {
            b = src[ip++] & 0xFF;
            literals += b;
          } while (b == 255);
        }
        System.arraycopy(src, ip, dst, op, literals);
        ip += literals;
        op += literals;
        if (ip >= length) {
          if (ip > length) {
            throw new IOException("LZ4 block: literals run past the block");
          }
          return op; // the last sequence has literals only
        }
        if (ip + 2 > length) {
          throw new IOException("LZ4 block: a match's offset runs past the block");
        }
        int offset = (src[ip] & 0xFF) | (src[ip + 1] & 0xFF) << 8;
        ip += 2;
        int match = (token & 0x0F) + MIN_MATCH;
        if ((token & 0x0F) == 15) {
          int b;
          do {
            b = src[ip++] & 0xFF;
            match += b;
          } while (b == 255);
        }
        int from = op - offset;
        if (offset == 0 || from < floor) {
          throw new IOException("LZ4 block: a match reaches before the history");
        }
        if (offset >= match) {
          System.arraycopy(dst, from, dst, op, match);
        } else if (match <= SHORT_MATCH) { // the match overlaps its own output: repeat the last offset bytes
          for (int i = 0; i < match; i++) {
            dst[op + i] = dst[from + i];
          }
        } else { // each run copies what is written already, twice the last: offset, 2 offset, 4 offset...
          for (int done = 0; done < match;) {
            int n = Math.min(offset + done, match - done);
            System.arraycopy(dst, from, dst, op + done, n);
            done += n;
          }
        }
        op += match;
      }
    } catch (ArrayIndexOutOfBoundsException e) {
      throw new IOException("LZ4 block: damaged (a length runs past the block or its output)", e);
    }
  }

  private byte[] readFully(int n) throws IOException {
    byte[] b = n <= word.length ? word : new byte[n];
    if (in.readNBytes(b, 0, n) < n) {
      throw new EOFException("LZ4 frame: the stream ends early");
    }
    return b;
  }

  private static int intLe(byte[] b) {
    return (b[0] & 0xFF) | (b[1] & 0xFF) << 8 | (b[2] & 0xFF) << 16 | (b[3] & 0xFF) << 24;
  }
}
