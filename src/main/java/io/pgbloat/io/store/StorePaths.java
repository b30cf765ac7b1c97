package io.pgbloat.io.store;

/** How a store's root is written: a URI with a scheme ("hdfs:", "file:") or a plain local path. */
public final class StorePaths {
  private StorePaths() {}

  /** Whether {@code path} starts with a URI scheme ("hdfs:", "file:"), rather than being a plain path. */
  public static boolean hasScheme(String path) {
    return path.matches("[A-Za-z][A-Za-z0-9+.-]+:.*");
  }

  /**
   * A URI when {@code root} starts with a scheme ("hdfs:", "file:"); otherwise a local path,
   * made absolute (and escaped) as a {@code file:} URI.
   */
  public static java.net.URI toUri(String root) {
    if (hasScheme(root)) {
      return java.net.URI.create(root);
    }
    return java.nio.file.Path.of(root).toAbsolutePath().normalize().toUri();
  }
}
