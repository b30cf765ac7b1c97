package io.pgbloat.io.store;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.TreeSet;

/**
 * The directories of a data directory held in a backup's index rather than a file system (the
 * members of tar archives, the files of a pgBackRest manifest): each directory's entries, the
 * parents of every path entered implied.
 */
public final class DirectoryTree implements java.io.Serializable {
  private static final long serialVersionUID = 1L;

  private final HashMap<String, TreeSet<String>> entries = new HashMap<>();

  public DirectoryTree() {
    entries.put("", new TreeSet<>());
  }

  /** Enters a file's or directory's {@code path} in its parent's listing, and each parent in its own. */
  public void add(String path) {
    String child = path;
    while (!child.isEmpty()) {
      int slash = child.lastIndexOf('/');
      String parent = slash < 0 ? "" : child.substring(0, slash);
      if (!entries.computeIfAbsent(parent, k -> new TreeSet<>()).add(child.substring(slash + 1))) {
        return; // its parents are entered already
      }
      child = parent;
    }
  }

  /** Enters {@code path} as a directory, empty unless files are entered under it. */
  public void addDirectory(String path) {
    entries.computeIfAbsent(path, k -> new TreeSet<>());
    add(path);
  }

  public boolean isDirectory(String path) {
    return entries.containsKey(path);
  }

  /** The names in directory {@code path}, sorted; empty when it is none. */
  public List<String> list(String path) {
    TreeSet<String> names = entries.get(path);
    return names == null ? List.of() : new ArrayList<>(names);
  }
}
