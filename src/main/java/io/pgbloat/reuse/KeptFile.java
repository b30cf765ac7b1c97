package io.pgbloat.reuse;

import io.pgbloat.changes.RelationFork;
import java.io.Serializable;
import java.util.List;

/**
 * The chunks kept of one relation file's main fork.
 *
 * @param file the fork, as WAL names it
 * @param countedAs how its pages were counted ({@link CountedAs}): a chunk is reused only by a
 *     run that counts them alike
 * @param chunks its chunks kept, by number
 */
public record KeptFile(RelationFork file, String countedAs, List<KeptChunk> chunks) implements Serializable {
  public KeptFile {
    chunks = List.copyOf(chunks);
  }
}
