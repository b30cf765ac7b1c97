package io.pgbloat.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.jclouds.blobstore.BlobStore;
import org.jclouds.blobstore.domain.Blob;
import org.jclouds.blobstore.domain.MultipartPart;
import org.jclouds.blobstore.domain.MultipartUpload;
import org.jclouds.blobstore.domain.PageSet;
import org.jclouds.blobstore.domain.StorageMetadata;
import org.jclouds.blobstore.domain.StorageType;
import org.jclouds.blobstore.domain.internal.MutableStorageMetadataImpl;
import org.jclouds.blobstore.domain.internal.PageSetImpl;
import org.jclouds.blobstore.options.CopyOptions;
import org.jclouds.blobstore.options.ListContainerOptions;
import org.jclouds.blobstore.options.PutOptions;

/**
 * An in-memory blob store that lists a page at the cost of the page, as S3 does: its keys are
 * kept sorted, per bucket, beside jclouds' {@code transient} store, which holds the objects. That
 * store builds and sorts every key's metadata of a bucket for each page it lists, so a listing
 * of a hundred thousand keys costs the server seconds a page, where S3 answers in tens of
 * milliseconds; a benchmark of a client's listing would time the server. Listings follow
 * jclouds' own (the prefix, the delimiter's common prefixes, each one entry ending with the
 * delimiter or a directory's marker object of that name, entries after the marker, the next
 * marker the page's last entry), which
 * {@code SortedKeysBlobStoreTest} holds it to. Any change to a bucket's keys drops its index,
 * made again from the store beneath at the next listing.
 */
final class SortedKeysBlobStore extends org.jclouds.blobstore.util.ForwardingBlobStore {
  /** S3's page when the request names none. */
  private static final int DEFAULT_PAGE = 1000;

  /** Each bucket's objects' metadata by key, made at its first listing after a change. */
  private final Map<String, NavigableMap<String, StorageMetadata>> indexes = new ConcurrentHashMap<>();

  SortedKeysBlobStore(BlobStore objects) {
    super(objects);
  }

  private NavigableMap<String, StorageMetadata> index(String container) {
    return indexes.computeIfAbsent(container, c -> {
      NavigableMap<String, StorageMetadata> keys = new TreeMap<>();
      String marker = null;
      do {
        ListContainerOptions all = ListContainerOptions.Builder.recursive().maxResults(Integer.MAX_VALUE);
        PageSet<? extends StorageMetadata> page = delegate().list(c, marker == null ? all : all.afterMarker(marker));
        page.forEach(m -> keys.put(m.getName(), m));
        marker = page.getNextMarker();
      } while (marker != null);
      return keys;
    });
  }

  @Override
  public PageSet<? extends StorageMetadata> list(String container) {
    return list(container, ListContainerOptions.NONE);
  }

  @Override
  public PageSet<? extends StorageMetadata> list(String container, ListContainerOptions options) {
    String prefix = options.getPrefix() == null ? "" : options.getPrefix();
    String delimiter = options.isRecursive() ? null : options.getDelimiter() == null ? "/" : options.getDelimiter();
    int page = options.getMaxResults() == null ? DEFAULT_PAGE : options.getMaxResults();
    String marker = options.getMarker();
    NavigableMap<String, StorageMetadata> keys = index(container);
    List<StorageMetadata> entries = new ArrayList<>();
    String from = marker != null && marker.compareTo(prefix) > 0 ? marker : prefix;
    NavigableMap<String, StorageMetadata> after = keys.tailMap(from, !from.equals(marker));
    for (Map.Entry<String, StorageMetadata> e = after.firstEntry(); e != null && e.getKey().startsWith(prefix);
        e = keys.higherEntry(e.getKey())) {
      if (entries.size() == page) {
        return new PageSetImpl<>(entries, entries.get(page - 1).getName());
      }
      int cut = delimiter == null ? -1 : e.getKey().indexOf(delimiter, prefix.length());
      if (cut < 0) {
        entries.add(e.getValue());
        continue;
      }
      String common = e.getKey().substring(0, cut + delimiter.length());
      if (marker == null || common.compareTo(marker) > 0) {
        entries.add(keys.containsKey(common) ? keys.get(common) : folder(common)); // a directory's marker object as jclouds lists it
      }
      // past every key under the common prefix: the greatest that starts with it, then the next
      String last = keys.floorKey(common + Character.MAX_VALUE);
      e = keys.floorEntry(last);
    }
    return new PageSetImpl<>(entries, null);
  }

  private static StorageMetadata folder(String name) {
    MutableStorageMetadataImpl folder = new MutableStorageMetadataImpl();
    folder.setType(StorageType.RELATIVE_PATH);
    folder.setName(name);
    return folder;
  }

  private <T> T changed(String container, T result) {
    indexes.remove(container);
    return result;
  }

  @Override
  public String putBlob(String container, Blob blob) {
    return changed(container, super.putBlob(container, blob));
  }

  @Override
  public String putBlob(String container, Blob blob, PutOptions options) {
    return changed(container, super.putBlob(container, blob, options));
  }

  @Override
  public String copyBlob(String fromContainer, String fromName, String toContainer, String toName,
      CopyOptions options) {
    return changed(toContainer, super.copyBlob(fromContainer, fromName, toContainer, toName, options));
  }

  @Override
  public String completeMultipartUpload(MultipartUpload upload, List<MultipartPart> parts) {
    return changed(upload.containerName(), super.completeMultipartUpload(upload, parts));
  }

  @Override
  public void removeBlob(String container, String name) {
    super.removeBlob(container, name);
    changed(container, null);
  }

  @Override
  public void removeBlobs(String container, Iterable<String> names) {
    super.removeBlobs(container, names);
    changed(container, null);
  }

  @Override
  public void clearContainer(String container) {
    super.clearContainer(container);
    changed(container, null);
  }

  @Override
  public void clearContainer(String container, ListContainerOptions options) {
    super.clearContainer(container, options);
    changed(container, null);
  }

  @Override
  public void deleteContainer(String container) {
    super.deleteContainer(container);
    changed(container, null);
  }

  @Override
  public boolean deleteContainerIfEmpty(String container) {
    return changed(container, super.deleteContainerIfEmpty(container));
  }

  @Override
  public void createDirectory(String container, String directory) {
    super.createDirectory(container, directory);
    changed(container, null);
  }

  @Override
  public void deleteDirectory(String container, String directory) {
    super.deleteDirectory(container, directory);
    changed(container, null);
  }
}
