package io.pgbloat.testing;

import java.util.EnumMap;
import java.util.Map;

/** How many requests of each {@link RequestKind} a client sent: a snapshot, or the difference of two. */
public record RequestCounts(Map<RequestKind, Long> byKind) {

  public RequestCounts {
    EnumMap<RequestKind, Long> all = new EnumMap<>(RequestKind.class);
    for (RequestKind kind : RequestKind.values()) {
      all.put(kind, byKind.getOrDefault(kind, 0L));
    }
    byKind = Map.copyOf(all);
  }

  public long of(RequestKind kind) {
    return byKind.get(kind);
  }

  public long gets() {
    return of(RequestKind.GET);
  }

  public long heads() {
    return of(RequestKind.HEAD);
  }

  public long lists() {
    return of(RequestKind.LIST);
  }

  /** Every request, of any kind. */
  public long total() {
    return byKind.values().stream().mapToLong(Long::longValue).sum();
  }

  /** Whether every request only read (GET, HEAD, LIST): nothing was written, copied or deleted. */
  public boolean onlyReads() {
    return gets() + heads() + lists() == total();
  }

  /** The requests sent since {@code earlier} was taken. */
  public RequestCounts since(RequestCounts earlier) {
    EnumMap<RequestKind, Long> difference = new EnumMap<>(RequestKind.class);
    for (RequestKind kind : RequestKind.values()) {
      difference.put(kind, of(kind) - earlier.of(kind));
    }
    return new RequestCounts(difference);
  }

  @Override
  public String toString() {
    StringBuilder text = new StringBuilder();
    for (RequestKind kind : RequestKind.values()) {
      if (of(kind) != 0) {
        text.append(text.length() == 0 ? "" : " ").append(kind).append('=').append(of(kind));
      }
    }
    return text.length() == 0 ? "no requests" : text.toString();
  }
}
