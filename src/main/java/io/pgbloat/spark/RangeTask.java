package io.pgbloat.spark;

import io.pgbloat.io.FileStores;
import io.pgbloat.io.read.IoSettings;
import io.pgbloat.io.store.FileStore;
import io.pgbloat.io.store.StoreAddress;
import io.pgbloat.sample.ScanRange;
import io.pgbloat.scan.RangeCounter;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.api.java.function.FlatMapFunction;

/**
 * The executor side of a job, for tables and indexes alike: opens the data directory and
 * counts the partition's ranges with the counter the driver chose.
 *
 * @param <R> what a range yields
 */
final class RangeTask<R> implements FlatMapFunction<Iterator<ScanRange>, R> {
  private static final long serialVersionUID = 1L;

  private final StoreAddress store;
  private final IoSettings io;
  private final RangeCounter.Factory<R> counter;

  RangeTask(StoreAddress store, IoSettings io, RangeCounter.Factory<R> counter) {
    this.store = store;
    this.io = io;
    this.counter = counter;
  }

  @Override
  public Iterator<R> call(Iterator<ScanRange> ranges) throws Exception {
    List<R> results = new ArrayList<>();
    try (FileStore files = FileStores.forScan(store, io)) {
      RangeCounter<R> counting = counter.on(files);
      while (ranges.hasNext()) {
        results.add(counting.count(ranges.next()));
      }
    }
    return results.iterator();
  }
}
