package io.pgbloat.io.read;

import io.pgbloat.io.store.FileStore;
import java.io.IOException;

/**
 * A relation's main fork as a server started on the files has it. Of an unlogged relation that
 * may be its init fork: a start that runs recovery removes every fork but the init fork of a
 * relation that has one, then copies the init fork over the main fork
 * ({@code ResetUnloggedRelations}, {@code src/backend/storage/file/reinit.c}); a base backup
 * leaves the main fork out and a standby removes it at its start, so there the init fork is all
 * there is. A relation with no init fork is left as it is, as reinit.c leaves it.
 *
 * @param measured the fork read as the main fork (the init fork in the cases above)
 * @param setAside the main fork the files hold, measured, where the start removes it for the
 *     init fork; null when it is kept or there is none
 */
public record StartedMainFork(SegmentedFile.Measured measured, SegmentedFile setAside) {

  /** A logged relation's main fork: the one the files hold. */
  public static StartedMainFork of(FileStore files, String relpath, int segmentBlocks) throws IOException {
    return new StartedMainFork(SegmentedFile.measure(files, relpath, segmentBlocks), null);
  }

  /**
   * An unlogged relation's main fork, the relation's main fork being at {@code relpath}.
   *
   * @param startRunsRecovery whether a start on {@code files} runs recovery, which resets the
   *     relation to its init fork; a clean shutdown's main fork is kept otherwise
   */
  public static StartedMainFork ofUnlogged(FileStore files, String relpath, int segmentBlocks,
      boolean startRunsRecovery) throws IOException {
    boolean main = files.length(relpath) >= 0;
    String init = Fork.INIT.path(relpath);
    if (main && !startRunsRecovery || files.length(init) < 0) {
      return of(files, relpath, segmentBlocks);
    }
    SegmentedFile setAside = main ? SegmentedFile.measure(files, relpath, segmentBlocks).file() : null;
    return new StartedMainFork(SegmentedFile.measure(files, init, segmentBlocks), setAside);
  }
}
