package io.pgbloat.catalog;

import io.pgbloat.error.CommitStatusUnavailableException;
import io.pgbloat.error.DataDirectoryException;
import io.pgbloat.io.read.SegmentedFile;
import io.pgbloat.io.store.FileStore;
import io.pgbloat.page.Attribute;
import io.pgbloat.page.HeapPage;
import io.pgbloat.page.HeapTupleHeader;
import io.pgbloat.page.ItemId;
import io.pgbloat.page.PageHeader;
import io.pgbloat.page.PageVerifier;
import io.pgbloat.page.Tuple;
import io.pgbloat.page.TupleVisibility;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Reads every visible row of a catalog table. Unlike a user table, a damaged catalog page is
 * fatal: without every row the list of relations would be silently incomplete.
 */
final class CatalogHeap {
  private final FileStore files;
  private final int segmentBlocks;
  private final PageVerifier verifier;
  private final TupleVisibility visibility;

  CatalogHeap(FileStore files, int segmentBlocks, PageVerifier verifier, TupleVisibility visibility) {
    this.files = files;
    this.segmentBlocks = segmentBlocks;
    this.verifier = verifier;
    this.visibility = visibility;
  }

  /**
   * Every visible row of the catalog {@code catalog} stored at {@code relpath}, mapped by
   * {@code row}. The Tuple given to {@code row} reads a page buffer that the next page
   * overwrites: {@code row} must copy what it needs, never return the Tuple itself.
   */
  <T> List<T> rows(String catalog, String relpath, List<Attribute> attributes, Function<Tuple, T> row) {
    List<T> rows = new ArrayList<>();
    try {
      SegmentedFile.Measured measured = SegmentedFile.measure(files, relpath, segmentBlocks);
      if (!measured.problems().isEmpty()) {
        throw damaged(catalog, relpath, String.join("; ", measured.problems()));
      }
      SegmentedFile file = measured.file();
      try {
        file.readInOrder(files, file.blocks(), (block, page) -> {
          String insane = verifier.check(page, block);
          if (insane != null) {
            throw damaged(catalog, relpath, "block " + block + ": " + insane);
          }
          readPage(catalog, relpath, block, page, attributes, row, rows);
        });
      } finally {
        file.release(files);
      }
    } catch (IOException e) {
      throw new DataDirectoryException("Cannot read catalog " + catalog + " (file=" + files.root() + "/"
          + relpath + "): " + e.getMessage() + "; check the file is there and readable", e);
    }
    return rows;
  }

  private <T> void readPage(String catalog, String relpath, long block, byte[] page,
      List<Attribute> attributes, Function<Tuple, T> row, List<T> rows) {
    int maxOffset = PageHeader.maxOffsetNumber(page);
    for (int off = 1; off <= maxOffset; off++) {
      int word = ItemId.word(page, off);
      if (ItemId.flags(word) != ItemId.LP_NORMAL) {
        continue;
      }
      int tuple = ItemId.offset(word);
      int len = ItemId.length(word);
      String wrong = HeapPage.itemProblem(page, off, tuple, len);
      if (wrong != null) {
        throw damaged(catalog, relpath, "block " + block + ": " + wrong);
      }
      boolean live;
      try {
        live = visibility.isLive(HeapTupleHeader.xmin(page, tuple), HeapTupleHeader.xmax(page, tuple),
            HeapTupleHeader.infomask(page, tuple), HeapTupleHeader.xvac(page, tuple));
      } catch (CommitStatusUnavailableException e) {
        throw damaged(catalog, relpath, "block " + block + " item " + off + ": " + e.getMessage());
      }
      if (!live) {
        continue;
      }
      try {
        rows.add(row.apply(Tuple.deform(page, tuple, len, attributes)));
      } catch (IllegalArgumentException | IllegalStateException e) {
        throw damaged(catalog, relpath, "block " + block + " item " + off + ": " + e.getMessage());
      }
    }
  }

  private DataDirectoryException damaged(String catalog, String relpath, String why) {
    return new DataDirectoryException("Cannot read catalog " + catalog + ": " + why + " (file="
        + files.root() + "/" + relpath + "); the catalog is damaged, so the list of tables would be incomplete");
  }
}
