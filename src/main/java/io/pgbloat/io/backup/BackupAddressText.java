package io.pgbloat.io.backup;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The text of a backup's address, {@code SCHEME LOCATION[?KEY=VALUE&KEY=VALUE]}: where the
 * backups are, and the parameters that pick one, each key one the scheme knows. An empty value
 * is as none.
 *
 * @param location what follows the scheme, up to the first '?'
 * @param parameters the parameters given with a value
 */
record BackupAddressText(String location, Map<String, String> parameters) {
  /**
   * The address {@code dataDir} gives, which starts with {@code scheme}.
   *
   * @param keys the parameters the scheme knows
   * @param locationName what the location is, for messages ("repository path")
   * @param usage the address's form, for messages
   * @throws IllegalArgumentException for a parameter not in {@code keys}, or no location
   */
  static BackupAddressText parse(String dataDir, String scheme, List<String> keys, String locationName,
      String usage) {
    String rest = dataDir.substring(scheme.length());
    int query = rest.indexOf('?');
    Map<String, String> parameters = new HashMap<>();
    if (query >= 0) {
      for (String pair : rest.substring(query + 1).split("&")) {
        String[] kv = pair.split("=", 2);
        if (!keys.contains(kv[0])) {
          throw new IllegalArgumentException("unknown parameter '" + kv[0] + "' in " + dataDir + "; give " + usage);
        }
        if (kv.length > 1 && !kv[1].isEmpty()) {
          parameters.put(kv[0], kv[1]);
        }
      }
      rest = rest.substring(0, query);
    }
    if (rest.isEmpty()) {
      throw new IllegalArgumentException("no " + locationName + " in " + dataDir + "; give " + usage);
    }
    return new BackupAddressText(rest, parameters);
  }
}
