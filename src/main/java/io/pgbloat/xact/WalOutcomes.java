package io.pgbloat.xact;

import io.pgbloat.io.store.FileStore;
import java.io.IOException;
import java.io.Serializable;
import java.util.Arrays;

/**
 * The outcomes the WAL of a copy records: its commit and abort records ({@link TransactionEnd}),
 * read from the checkpoint's redo point on, as recovery would replay them. Only outcomes are
 * taken; no page image or change is replayed, so the figures still describe the data files as
 * they are.
 *
 * @param committed transactions (and subtransactions) whose commit is recorded, sorted
 * @param aborted those whose abort is recorded, sorted
 */
public record WalOutcomes(int[] committed, int[] aborted) implements Serializable {
  /** No WAL read. */
  public static final WalOutcomes NONE = new WalOutcomes(new int[0], new int[0]);

  public WalOutcomes {
    committed = committed.clone();
    aborted = aborted.clone();
    Arrays.sort(committed);
    Arrays.sort(aborted);
  }

  /** The recorded outcome of {@code xid}, or null when the WAL read records none. */
  XidStatus of(int xid) {
    if (Arrays.binarySearch(committed, xid) >= 0) {
      return XidStatus.COMMITTED;
    }
    return Arrays.binarySearch(aborted, xid) >= 0 ? XidStatus.ABORTED : null;
  }

  /** The outcomes recorded in {@code pg_wal} from {@code startLsn} on. */
  public static WalOutcomes read(FileStore files, WalFormat format, long startLsn) throws IOException {
    IntList committed = new IntList();
    IntList aborted = new IntList();
    WalRecords.forEach(files, format, startLsn, record -> {
      TransactionEnd end;
      try {
        end = TransactionEnd.of(record, format);
      } catch (IllegalArgumentException e) {
        return; // not this version's layout: it records no outcome that can be trusted
      }
      if (end != null && TransactionIds.isNormal(end.xid())) {
        IntList into = end.committed() ? committed : aborted;
        into.add(end.xid());
        for (int sub : end.subxacts()) {
          into.add(sub);
        }
      }
    });
    return new WalOutcomes(committed.toArray(), aborted.toArray());
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof WalOutcomes w && Arrays.equals(committed, w.committed) && Arrays.equals(aborted, w.aborted);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(committed) + Arrays.hashCode(aborted);
  }

  @Override
  public String toString() {
    return "WalOutcomes[committed=" + committed.length + ", aborted=" + aborted.length + "]";
  }

  /** A growable list of ints. */
  private static final class IntList {
    private int[] values = new int[64];
    private int size;

    void add(int v) {
      if (size == values.length) {
        values = Arrays.copyOf(values, 2 * size);
      }
      values[size++] = v;
    }

    int[] toArray() {
      return Arrays.copyOf(values, size);
    }
  }
}
