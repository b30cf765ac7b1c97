package io.pgbloat.source;

import io.pgbloat.catalog.Relation;
import io.pgbloat.io.FileStores;
import io.pgbloat.io.read.IoSettings;
import io.pgbloat.io.store.FileStore;
import io.pgbloat.io.store.StoreAddress;
import io.pgbloat.page.PageRules;
import io.pgbloat.scan.RangePages;
import io.pgbloat.scan.RangeScanner;
import io.pgbloat.xact.ClusterTransactions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;

/** Sent to the executors: what they need to read and count a range's pages. */
final class PageReaderFactory implements PartitionReaderFactory {
  private static final long serialVersionUID = 1L;

  private final StoreAddress store;
  private final List<Relation> relations;
  private final ClusterTransactions transactions;
  private final PageRules pageRules;
  private final IoSettings io;

  PageReaderFactory(StoreAddress store, List<Relation> relations, ClusterTransactions transactions,
      PageRules pageRules, IoSettings io) {
    this.store = store;
    this.relations = List.copyOf(relations);
    this.transactions = transactions;
    this.pageRules = pageRules;
    this.io = io;
  }

  @Override
  public PartitionReader<InternalRow> createReader(InputPartition partition) {
    if (!(partition instanceof PageRangePartition range)) {
      throw new IllegalArgumentException("Unknown input partition type: " + partition.getClass().getName());
    }
    FileStore files;
    try {
      files = FileStores.forScan(store, io);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open data directory " + store.dataDir() + " on this executor", e);
    }
    try {
      return new PageReader(files, new RangeScanner(files, transactions, pageRules, io).pages(range.range()));
    } catch (RuntimeException e) {
      try {
        files.close();
      } catch (IOException closing) {
        e.addSuppressed(closing);
      }
      throw e;
    }
  }

  /** Rows of one range's pages, in block order. */
  private final class PageReader implements PartitionReader<InternalRow> {
    private final FileStore files;
    private final RangePages pages;
    private InternalRow current;

    PageReader(FileStore files, RangePages pages) {
      this.files = files;
      this.pages = pages;
    }

    @Override
    public boolean next() {
      if (!pages.hasNext()) {
        return false;
      }
      var page = pages.next();
      current = PageRows.of(relations.get(page.relation()), page);
      return true;
    }

    @Override
    public InternalRow get() {
      return current;
    }

    @Override
    public void close() throws IOException {
      pages.close();
      files.close();
    }
  }
}
