package io.pgbloat.xact;

import static io.pgbloat.page.HeapTupleHeader.HEAP_XMAX_COMMITTED;
import static io.pgbloat.page.HeapTupleHeader.HEAP_XMAX_EXCL_LOCK;
import static io.pgbloat.page.HeapTupleHeader.HEAP_XMAX_INVALID;
import static io.pgbloat.page.HeapTupleHeader.HEAP_XMAX_IS_MULTI;
import static io.pgbloat.page.HeapTupleHeader.HEAP_XMAX_KEYSHR_LOCK;
import static io.pgbloat.page.HeapTupleHeader.HEAP_XMAX_LOCK_ONLY;
import static io.pgbloat.page.HeapTupleHeader.HEAP_XMIN_COMMITTED;
import static io.pgbloat.page.HeapTupleHeader.HEAP_XMIN_FROZEN;
import static io.pgbloat.page.HeapTupleHeader.HEAP_XMIN_INVALID;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pgbloat.error.CommitStatusUnavailableException;
import io.pgbloat.io.store.HadoopFileStore;
import io.pgbloat.page.TupleVerdict;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The live/dead rules on commit-log and multixact files written here in PostgreSQL's layout,
 * so every branch of HeapTupleSatisfiesDirty is exercised with a known answer.
 */
class VisibilityRulesTest {
  static final int COMMITTED = 100;
  static final int ABORTED = 101;
  static final int CRASHED = 102;       // no outcome recorded, not prepared
  static final int PREPARED = 103;      // no outcome recorded, in pg_twophase
  static final int LOCKER = 104;
  static final int UPDATER_MULTI = 1;   // members: LOCKER (for key share), COMMITTED (update)
  static final int LOCKERS_MULTI = 2;   // members: LOCKER, PREPARED (both for share)
  static final int ABORTED_UPDATE_MULTI = 3; // members: LOCKER (for key share), ABORTED (no key update)
  /** The checkpoint's nextXid: pg_xact/0000 covers 0..1048575, so older xids beyond it are damage. */
  static final int NEXT_XID = 10_000_000;

  @TempDir Path dir;
  HadoopFileStore files;
  DirtySnapshot dirty;
  CommittedSnapshot committed;
  TransactionStatus status;

  @BeforeEach
  void writeFiles() throws IOException {
    byte[] clog = new byte[8192];
    setStatus(clog, COMMITTED, 1);
    setStatus(clog, ABORTED, 2);
    setStatus(clog, LOCKER, 1);
    Files.createDirectories(dir.resolve("pg_xact"));
    Files.write(dir.resolve("pg_xact/0000"), clog);

    ByteBuffer offsets = ByteBuffer.allocate(8192).order(ByteOrder.LITTLE_ENDIAN);
    offsets.putInt(UPDATER_MULTI * 4, 1).putInt(LOCKERS_MULTI * 4, 3).putInt(ABORTED_UPDATE_MULTI * 4, 5);
    ByteBuffer members = ByteBuffer.allocate(8192).order(ByteOrder.LITTLE_ENDIAN);
    // offsets 0..3 form group 0, offsets 4..7 group 1 (20 bytes each: 4 flag bytes, 4 xids)
    member(members, 1, LOCKER, 0x00);        // ForKeyShare
    member(members, 2, COMMITTED, 0x05);     // Update
    member(members, 3, LOCKER, 0x01);        // ForShare
    member(members, 4, PREPARED, 0x01);      // ForShare
    member(members, 5, LOCKER, 0x00);        // ForKeyShare
    member(members, 6, ABORTED, 0x04);       // NoKeyUpdate
    Files.createDirectories(dir.resolve("pg_multixact/offsets"));
    Files.createDirectories(dir.resolve("pg_multixact/members"));
    Files.write(dir.resolve("pg_multixact/offsets/0000"), offsets.array());
    Files.write(dir.resolve("pg_multixact/members/0000"), members.array());

    files = HadoopFileStore.open(dir.toString(), new Configuration());
    status = new TransactionStatus(files, new ClusterTransactions(NEXT_XID, 4, 7, 0, new int[] {PREPARED}));
    dirty = new DirtySnapshot(status);
    committed = new CommittedSnapshot(status);
  }

  @AfterEach
  void close() throws IOException {
    files.close();
  }

  private static void setStatus(byte[] clog, int xid, int bits) {
    clog[xid / 4] |= (byte) (bits << ((xid % 4) * 2));
  }

  private static void member(ByteBuffer members, int offset, int xid, int flag) {
    int group = (offset / 4) * 20;
    int slot = offset % 4;
    members.put(group + slot, (byte) flag);
    members.putInt(group + 4 + slot * 4, xid);
  }

  @Test
  void commitLogAnswersPerTransaction() {
    assertTrue(status.didCommit(COMMITTED));
    assertFalse(status.didCommit(ABORTED));
    assertFalse(status.didCommit(CRASHED));
    assertFalse(status.isInProgress(CRASHED));
    assertTrue(status.isInProgress(PREPARED));
    assertTrue(status.didCommit(TransactionIds.FROZEN));
    assertTrue(status.didCommit(TransactionIds.BOOTSTRAP));
    assertFalse(status.didCommit(TransactionIds.INVALID));
  }

  @Test
  void multixactUpdaterIsTheMemberThatUpdated() {
    assertEquals(COMMITTED, status.multiXactUpdater(UPDATER_MULTI));
    assertEquals(0, status.multiXactUpdater(LOCKERS_MULTI));
    assertEquals(ABORTED, status.multiXactUpdater(ABORTED_UPDATE_MULTI)); // the newest: ends at nextMultiOffset
  }

  @Test
  void hintBitsAreTrusted() {
    assertTrue(dirty.isLive(CRASHED, 0, HEAP_XMIN_COMMITTED | HEAP_XMAX_INVALID, 0));
    assertTrue(dirty.isLive(CRASHED, 0, HEAP_XMIN_FROZEN | HEAP_XMAX_INVALID, 0));
    assertFalse(dirty.isLive(COMMITTED, 0, HEAP_XMIN_INVALID, 0));
    assertFalse(dirty.isLive(COMMITTED, CRASHED, HEAP_XMIN_COMMITTED | HEAP_XMAX_COMMITTED, 0));
    assertTrue(dirty.isLive(COMMITTED, LOCKER, HEAP_XMIN_COMMITTED | HEAP_XMAX_COMMITTED | HEAP_XMAX_LOCK_ONLY, 0));
  }

  @Test
  void missingHintsAreDecidedByTheCommitLog() {
    assertTrue(dirty.isLive(COMMITTED, 0, 0, 0), "committed insert, no xmax");
    assertFalse(dirty.isLive(ABORTED, 0, 0, 0), "aborted insert");
    assertFalse(dirty.isLive(CRASHED, 0, 0, 0), "crashed insert");
    assertTrue(dirty.isLive(PREPARED, 0, 0, 0), "insert in progress: live to a dirty snapshot");
    assertFalse(dirty.isLive(COMMITTED, COMMITTED, 0, 0), "committed delete");
    assertTrue(dirty.isLive(COMMITTED, ABORTED, 0, 0), "aborted delete");
    assertTrue(dirty.isLive(COMMITTED, CRASHED, 0, 0), "crashed delete");
    assertTrue(dirty.isLive(COMMITTED, PREPARED, 0, 0), "delete in progress");
    assertTrue(dirty.isLive(COMMITTED, LOCKER, HEAP_XMAX_EXCL_LOCK, 0), "pre-9.3 exclusive lock only");
    assertTrue(dirty.isLive(COMMITTED, LOCKER, HEAP_XMAX_LOCK_ONLY | HEAP_XMAX_KEYSHR_LOCK, 0), "key-share lock");
  }

  @Test
  void multixactXmaxFollowsItsUpdater() {
    assertFalse(dirty.isLive(COMMITTED, UPDATER_MULTI, HEAP_XMAX_IS_MULTI, 0), "committed updater");
    assertTrue(dirty.isLive(COMMITTED, ABORTED_UPDATE_MULTI, HEAP_XMAX_IS_MULTI, 0), "aborted updater");
    assertTrue(dirty.isLive(COMMITTED, LOCKERS_MULTI, HEAP_XMAX_IS_MULTI | HEAP_XMAX_LOCK_ONLY, 0), "lockers only");
  }

  @Test
  void catalogRuleHidesRowsOfUnfinishedInserts() {
    assertFalse(committed.isLive(PREPARED, 0, 0, 0), "a prepared insert is not yet visible");
    assertTrue(committed.isLive(COMMITTED, PREPARED, 0, 0), "a prepared delete has not removed it yet");
    assertFalse(committed.isLive(COMMITTED, UPDATER_MULTI, HEAP_XMAX_IS_MULTI, 0));
    assertTrue(committed.isLive(COMMITTED, ABORTED, 0, 0));
  }

  @Test
  void missingCommitLogSegmentOfAnOlderTransactionIsReportedNotGuessed() {
    assertFalse(status.isInProgress(5_000_000));
    CommitStatusUnavailableException e = assertThrows(CommitStatusUnavailableException.class,
        () -> status.didCommit(5_000_000));
    assertEquals("Cannot look up the status of transaction 5000000, older than the checkpoint's 10000000: "
        + "pg_xact/0004 is missing", e.getMessage());
    assertEquals(0, status.withoutOutcome());
  }

  /** A copy of a running server: transactions past the copy's pg_xact were running when it was taken. */
  @Test
  void transactionsPastTheCopysCommitLogAreInProgressAndCounted() {
    int pastTheCopy = 20_000_000;
    assertTrue(dirty.isLive(pastTheCopy, 0, 0, 0), "an insert past the copy: live, as one in progress");
    assertTrue(dirty.isLive(COMMITTED, pastTheCopy, 0, 0), "a delete past the copy: still live");
    assertFalse(committed.isLive(pastTheCopy, 0, 0, 0), "a catalog row inserted past the copy: not yet visible");
    assertEquals(3, dirty.withoutOutcome());
    assertTrue(dirty.isLive(COMMITTED, 0, 0, 0));
    assertEquals(3, dirty.withoutOutcome(), "a transaction the copy holds is not counted");
  }

  /** A tuple's verdict says whether it stood on a transaction the copy holds no outcome for. */
  @Test
  void aVerdictSaysWhetherItStoodOnATransactionWithoutOutcome() {
    int pastTheCopy = 20_000_000;
    assertEquals(TupleVerdict.LIVE_WITHOUT_OUTCOME, dirty.verdict(pastTheCopy, 0, 0, 0));
    assertEquals(TupleVerdict.LIVE_WITHOUT_OUTCOME, dirty.verdict(COMMITTED, pastTheCopy, 0, 0));
    assertEquals(TupleVerdict.LIVE, dirty.verdict(COMMITTED, 0, 0, 0));
    assertEquals(TupleVerdict.DEAD, dirty.verdict(COMMITTED, COMMITTED, 0, 0));
    assertEquals(TupleVerdict.DEAD, committed.verdict(pastTheCopy, 0, 0, 0),
        "the committed rule is not asked to count its guesses: it answers as isLive does");
  }

  /** A multixact past pg_multixact's pages, or the newest one whose end offset is not yet set. */
  @Test
  void multixactsPastTheCopyLeaveTheirTuplesLive() {
    assertTrue(dirty.isLive(COMMITTED, 50_000, HEAP_XMAX_IS_MULTI, 0), "its offsets page is not in the copy");
    assertTrue(committed.isLive(COMMITTED, 50_000, HEAP_XMAX_IS_MULTI, 0));
    assertEquals(2, status.withoutOutcome());
  }

  /**
   * Answers a later copy may give otherwise are counted as unsettled: a prepared transaction, one
   * past the copy, a multixact past it, and in a copy of a running server a running transaction
   * and a subtransaction whose parent had not finished; a recorded outcome or a crash is final.
   */
  @Test
  void answersALaterCopyMayChangeAreUnsettled() throws IOException {
    dirty.isLive(COMMITTED, 0, 0, 0);
    dirty.isLive(ABORTED, 0, 0, 0);
    dirty.isLive(CRASHED, 0, 0, 0);
    dirty.isLive(COMMITTED, COMMITTED, 0, 0);
    assertEquals(0, status.unsettled(), "outcomes recorded, a crash");
    dirty.isLive(PREPARED, 0, 0, 0);
    dirty.isLive(20_000_000, 0, 0, 0);
    dirty.isLive(COMMITTED, 50_000, HEAP_XMAX_IS_MULTI, 0);
    assertEquals(3, status.unsettled(), "prepared, past the copy's pg_xact, past its pg_multixact");

    int running = 105;
    int subcommitted = 106;
    byte[] clog = Files.readAllBytes(dir.resolve("pg_xact/0000"));
    setStatus(clog, subcommitted, 3);
    Files.write(dir.resolve("pg_xact/0000"), clog);
    TransactionStatus online = new TransactionStatus(files, new ClusterTransactions(NEXT_XID, 4, 7, 100, new int[0]));
    DirtySnapshot onlineRule = new DirtySnapshot(online);
    assertTrue(onlineRule.isLive(running, 0, 0, 0));
    assertFalse(onlineRule.isLive(subcommitted, 0, 0, 0));
    assertEquals(2, online.unsettled(), "running at an online checkpoint, sub-committed under a running parent");
    TransactionStatus stopped = new TransactionStatus(files, new ClusterTransactions(NEXT_XID, 4, 7, 0, new int[0]));
    new DirtySnapshot(stopped).isLive(subcommitted, 0, 0, 0);
    assertEquals(0, stopped.unsettled(), "after a clean stop a sub-committed transaction's parent is gone");
  }
}
