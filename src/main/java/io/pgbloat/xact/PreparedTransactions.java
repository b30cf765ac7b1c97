package io.pgbloat.xact;

import io.pgbloat.io.store.FileStore;
import io.pgbloat.page.LittleEndian;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The transactions left prepared at shutdown: a state file per transaction in
 * {@code pg_twophase}, in the {@link TwoPhaseFileFormat} of the cluster's version.
 */
public final class PreparedTransactions {
  private static final int MAXALIGN = 8;

  private PreparedTransactions() {}

  /**
   * The xids of every prepared transaction and of its subtransactions. A state file that
   * cannot be parsed still contributes the xid its name gives.
   *
   * @param warnings receives one line per state file that could not be read whole
   */
  public static int[] read(FileStore files, TwoPhaseFileFormat format, List<String> warnings) throws IOException {
    List<Integer> xids = new ArrayList<>();
    for (String name : files.list("pg_twophase")) {
      if (!format.isStateFile(name)) {
        continue;
      }
      int xid = format.xidOf(name);
      xids.add(xid);
      byte[] state = files.readAll("pg_twophase/" + name);
      if (state.length < format.headerSize()
          || LittleEndian.int32(state, TwoPhaseFileFormat.MAGIC_OFFSET) != TwoPhaseFileFormat.TWOPHASE_MAGIC
          || LittleEndian.int32(state, TwoPhaseFileFormat.XID_OFFSET) != xid) {
        warnings.add("pg_twophase/" + name + " is not a valid two-phase state file; its subtransactions are not known");
        continue;
      }
      int subxacts = LittleEndian.int32(state, TwoPhaseFileFormat.NSUBXACTS_OFFSET);
      int at = format.headerSize() + align(LittleEndian.uint16(state, format.gidlenOffset()));
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
