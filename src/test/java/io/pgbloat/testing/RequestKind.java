package io.pgbloat.testing;

import java.util.Locale;

/**
 * What an S3 request asks for, told from its HTTP request line alone: the counts a run's cost is
 * measured in. A listing is a GET on a bucket (path-style: {@code /bucket} or {@code /bucket/})
 * or one with the ListObjects parameters in its query; any other GET reads an object.
 */
public enum RequestKind {
  GET, HEAD, LIST, PUT, POST, DELETE, OTHER;

  /** The kind of a request whose line is {@code method target} (target as sent: path and query). */
  public static RequestKind of(String method, String target) {
    switch (method.toUpperCase(Locale.ROOT)) {
      case "GET":
        return isListing(target) ? LIST : GET;
      case "HEAD":
        return HEAD;
      case "PUT":
        return PUT;
      case "POST":
        return POST;
      case "DELETE":
        return DELETE;
      default:
        return OTHER;
    }
  }

  private static boolean isListing(String target) {
    int q = target.indexOf('?');
    String path = q < 0 ? target : target.substring(0, q);
    String query = q < 0 ? "" : target.substring(q + 1);
    for (String parameter : query.split("&")) {
      String name = parameter.split("=", 2)[0];
      if (name.equals("list-type") || name.equals("prefix") || name.equals("delimiter") || name.equals("marker")) {
        return true;
      }
    }
    String trimmed = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    return query.isEmpty() && trimmed.lastIndexOf('/') == 0; // a bucket's own path: the oldest ListObjects
  }
}
