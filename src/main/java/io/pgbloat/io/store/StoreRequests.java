package io.pgbloat.io.store;

import java.io.Serializable;

/**
 * Requests a store sent to a remote file system, by kind, as its connector counted them (an
 * object store's GET, HEAD and LIST requests, a listing's every page included): what a run costs
 * where each request is a round trip. Zero for a local directory.
 *
 * @param lists listings, a request a page
 * @param heads questions about one file (its length, whether it is there)
 * @param gets reads of a file's bytes
 */
public record StoreRequests(long lists, long heads, long gets) implements Serializable {
  public static final StoreRequests NONE = new StoreRequests(0, 0, 0);

  public StoreRequests plus(StoreRequests other) {
    return new StoreRequests(lists + other.lists, heads + other.heads, gets + other.gets);
  }

  /** The requests sent since {@code earlier} was taken (of the same store). */
  public StoreRequests since(StoreRequests earlier) {
    return new StoreRequests(lists - earlier.lists, heads - earlier.heads, gets - earlier.gets);
  }

  public long total() {
    return lists + heads + gets;
  }
}
