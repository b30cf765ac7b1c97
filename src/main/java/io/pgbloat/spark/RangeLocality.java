package io.pgbloat.spark;

import io.pgbloat.io.FileStores;
import io.pgbloat.io.read.BlockHosts;
import io.pgbloat.io.store.FileStore;
import io.pgbloat.io.store.StoreAddress;
import io.pgbloat.sample.RelationSlice;
import io.pgbloat.sample.ScanRange;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The hosts each range would rather run on: those holding most of its bytes (HDFS block
 * replicas), so that its reads are local. Local files have no preference.
 */
final class RangeLocality {
  /** A range prefers at most this many hosts (HDFS keeps three replicas by default). */
  private static final int MAX_HOSTS = 3;

  private RangeLocality() {}

  /** Per range (same order), its preferred hosts; empty lists where nothing is known. */
  static List<List<String>> preferredHosts(StoreAddress store, List<ScanRange> ranges) {
    if (FileStores.isLocal(store.dataDir())) {
      return none(ranges);
    }
    List<List<String>> hosts = new ArrayList<>();
    try (FileStore files = FileStores.open(store)) {
      BlockHosts blockHosts = new BlockHosts(files);
      for (ScanRange range : ranges) {
        Map<String, Long> bytes = new HashMap<>();
        for (RelationSlice slice : range.slices()) {
          blockHosts.bytesByHost(slice.file(), slice.blocks()).forEach((h, b) -> bytes.merge(h, b, Long::sum));
        }
        long best = bytes.values().stream().mapToLong(Long::longValue).max().orElse(0);
        hosts.add(bytes.entrySet().stream()
            .filter(e -> e.getValue() * 2 >= best) // hosts with at least half the best host's bytes
            .sorted(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
            .limit(MAX_HOSTS).map(Map.Entry::getKey).toList());
      }
    } catch (IOException e) {
      // locality is a preference: without it every range still runs, only less locally
      return none(ranges);
    }
    return hosts;
  }

  /** No preference for any of {@code ranges}. */
  static List<List<String>> none(List<ScanRange> ranges) {
    return ranges.stream().map(r -> List.<String>of()).toList();
  }
}
