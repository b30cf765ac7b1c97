package io.pgbloat.xact;

import io.pgbloat.io.FileStore;
import io.pgbloat.page.LittleEndian;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The transactions left prepared at shutdown: a state file per transaction in
 * {@code pg_twophase}, named by its xid in 8 hex digits ({@code TwoPhaseFilePath},
 * {@code src/backend/access/transam/twophase.c}, PostgreSQL 15). The file starts with a
 * TwoPhaseFileHeader; after it, MAXALIGNed, come the GID and the subtransaction xids.
 */
public final class PreparedTransactions {
  /** TWOPHASE_MAGIC: format identifier of the state file. */
  static final int TWOPHASE_MAGIC = 0x57F94534;
  static final int MAGIC_OFFSET = 0;         // uint32 magic
  static final int XID_OFFSET = 8;           // TransactionId xid
  static final int NSUBXACTS_OFFSET = 28;    // int32 nsubxacts
  static final int GIDLEN_OFFSET = 54;       // uint16 gidlen
  /** MAXALIGN(sizeof(TwoPhaseFileHeader)). */
  static final int HEADER_SIZE = 72;
  private static final int MAXALIGN = 8;

  private PreparedTransactions() {}

  /**
   * The xids of every prepared transaction and of its subtransactions. A state file that
   * cannot be parsed still contributes the xid its name gives.
   *
   * @param warnings receives one line per state file that could not be read whole
   */
  public static int[] read(FileStore files, List<String> warnings) throws IOException {
    List<Integer> xids = new ArrayList<>();
    for (String name : files.list("pg_twophase")) {
      if (!name.matches("[0-9A-F]{8}")) {
        continue;
      }
      int xid = Integer.parseUnsignedInt(name, 16);
      xids.add(xid);
      byte[] state = files.readAll("pg_twophase/" + name);
      if (state.length < HEADER_SIZE || LittleEndian.int32(state, MAGIC_OFFSET) != TWOPHASE_MAGIC
          || LittleEndian.int32(state, XID_OFFSET) != xid) {
        warnings.add("pg_twophase/" + name + " is not a valid two-phase state file; its subtransactions are not known");
        continue;
      }
      int subxacts = LittleEndian.int32(state, NSUBXACTS_OFFSET);
      int at = HEADER_SIZE + align(LittleEndian.uint16(state, GIDLEN_OFFSET));
      if (subxacts < 0 || at + (long) subxacts * Integer.BYTES > state.length) {
        warnings.add("pg_twophase/" + name + " lists " + subxacts + " subtransactions beyond its end");
        continue;
      }
      for (int i = 0; i < subxacts; i++) {
        xids.add(LittleEndian.int32(state, at + i * Integer.BYTES));
      }
    }
    return xids.stream().mapToInt(Integer::intValue).toArray();
  }

  private static int align(int length) {
    return (length + MAXALIGN - 1) & ~(MAXALIGN - 1);
  }
}
