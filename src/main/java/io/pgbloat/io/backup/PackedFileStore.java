package io.pgbloat.io.backup;

import io.pgbloat.io.codec.DecodedFile;
import io.pgbloat.io.store.DirectoryTree;
import io.pgbloat.io.store.FileStore;
import io.pgbloat.io.store.OpenFiles;
import io.pgbloat.io.store.StoreRequests;
import java.io.IOException;
import java.util.List;

/**
 * A store whose files are packed in the files of a store beneath it (a backup's tar archives, a
 * pgBackRest repository's compressed files and bundles): the directory tree its index gives, the
 * decoders it keeps open, and the store beneath, which it owns and closes.
 */
abstract class PackedFileStore implements FileStore {
  private final FileStore beneath;
  private final DirectoryTree directories;
  private final OpenFiles<DecodedFile> decoders = new OpenFiles<>(d -> true);

  PackedFileStore(FileStore beneath, DirectoryTree directories) {
    this.beneath = beneath;
    this.directories = directories;
  }

  /** The store the packed files are read from. */
  final FileStore beneath() {
    return beneath;
  }

  /** The files' directories, as the index found them. */
  final DirectoryTree directories() {
    return directories;
  }

  /** The decoders open, one per stored file read compressed. */
  final OpenFiles<DecodedFile> decoders() {
    return decoders;
  }

  @Override
  public final boolean isDirectory(String path) {
    return directories.isDirectory(path);
  }

  @Override
  public final List<String> list(String path) {
    return directories.list(path);
  }

  /** As the store beneath advises, unless the packed files decode in order, one read at a time. */
  @Override
  public final int readsInFlight() {
    return decodesInOrder() ? 1 : beneath.readsInFlight();
  }

  /** What reading the packed files asked of the store beneath. */
  @Override
  public final StoreRequests requests() {
    return beneath.requests();
  }

  /** Closes the decoders, then the store beneath, though a decoder's close fails. */
  @Override
  public final void close() throws IOException {
    try {
      decoders.close();
    } finally {
      beneath.close();
    }
  }
}
