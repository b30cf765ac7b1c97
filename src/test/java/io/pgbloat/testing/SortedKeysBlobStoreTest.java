package io.pgbloat.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStore;
import org.jclouds.blobstore.BlobStoreContext;
import org.jclouds.blobstore.domain.PageSet;
import org.jclouds.blobstore.domain.StorageMetadata;
import org.jclouds.blobstore.options.ListContainerOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The sorted-keys store lists as jclouds' own in-memory store does, page by page. */
class SortedKeysBlobStoreTest {
  private static final List<String> KEYS = List.of("a", "d/a", "d/b/x", "d/b/y", "d/b-c", "d/b.c/z", "d/c",
      "d/e/", "d/e/f/g", "d/z", "e", "pgdata/base/1/1259", "pgdata/base/1/1259_vm", "pgdata/base/1/2.1",
      "pgdata/base/1/PG_VERSION", "pgdata/global/pg_control", "z/");

  private BlobStoreContext plainContext;
  private BlobStoreContext sortedContext;
  private BlobStore plain;
  private BlobStore sorted;

  private static BlobStoreContext inMemory() {
    Properties credentials = new Properties();
    credentials.setProperty("transient.identity", "test");
    credentials.setProperty("transient.credential", "test");
    return ContextBuilder.newBuilder("transient").overrides(credentials).buildView(BlobStoreContext.class);
  }

  @BeforeEach
  void fill() {
    plainContext = inMemory();
    sortedContext = inMemory();
    plain = plainContext.getBlobStore();
    sorted = new SortedKeysBlobStore(sortedContext.getBlobStore());
    for (BlobStore store : List.of(plain, sorted)) {
      store.createContainerInLocation(null, "b");
      for (String key : KEYS) {
        store.putBlob("b", store.blobBuilder(key).payload(new byte[key.length()]).build());
      }
    }
  }

  @AfterEach
  void close() {
    plainContext.close();
    sortedContext.close();
  }

  /** A page as text: each entry's type, name and size, then the next marker. */
  private static String page(BlobStore store, ListContainerOptions options) {
    PageSet<? extends StorageMetadata> page = store.list("b", options);
    List<String> entries = new ArrayList<>();
    page.forEach(m -> entries.add(m.getType() + " " + m.getName() + " " + m.getSize()));
    return entries + " next " + page.getNextMarker();
  }

  private static List<ListContainerOptions> everyListing() {
    List<String> markers = new ArrayList<>(KEYS);
    markers.addAll(List.of("d/b/", "d/e/", "d/", "pgdata/base/1/", "0", "zz"));
    List<ListContainerOptions> all = new ArrayList<>();
    for (String prefix : List.of("", "d/", "d/b", "d/b/", "pgdata/base/1/", "pgdata/", "nothing/")) {
      for (boolean recursive : new boolean[] {false, true}) {
        for (Integer pageSize : new Integer[] {null, 1, 2, 3, 1000}) {
          for (String marker : markers) {
            for (boolean withMarker : new boolean[] {false, true}) {
              ListContainerOptions o = ListContainerOptions.Builder.prefix(prefix);
              o = recursive ? o.recursive() : o.delimiter("/");
              if (pageSize != null) {
                o = o.maxResults(pageSize);
              }
              all.add(withMarker ? o.afterMarker(marker) : o);
            }
          }
        }
      }
    }
    return all;
  }

  @Test
  void everyPageIsJcloudsOwn() {
    for (ListContainerOptions options : everyListing()) {
      assertEquals(page(plain, options), page(sorted, options), options.toString());
    }
  }

  @Test
  void aChangeIsListedNext() {
    assertEquals(page(plain, ListContainerOptions.Builder.recursive()), page(sorted, ListContainerOptions.Builder.recursive()));
    for (BlobStore store : List.of(plain, sorted)) {
      store.putBlob("b", store.blobBuilder("d/new").payload(new byte[1]).build());
      store.removeBlob("b", "d/a");
    }
    ListContainerOptions options = ListContainerOptions.Builder.prefix("d/").delimiter("/");
    assertEquals(page(plain, options), page(sorted, options));
  }
}
