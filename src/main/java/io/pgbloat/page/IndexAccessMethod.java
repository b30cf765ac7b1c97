package io.pgbloat.page;

/**
 * The index access methods of PostgreSQL whose pages this tool reads, by their pg_am.amname
 * ({@code src/include/catalog/pg_am.dat}, the same 13-18).
 */
public enum IndexAccessMethod {
  /** BTREE_DEFAULT_FILLFACTOR ({@code src/include/access/nbtree.h}). */
  BTREE("btree", 90),
  /** HASH_DEFAULT_FILLFACTOR ({@code src/include/access/hash.h}). */
  HASH("hash", 75),
  /** GIST_DEFAULT_FILLFACTOR ({@code src/include/access/gist_private.h}). */
  GIST("gist", 90),
  /** GIN has no fillfactor: its build fills pages whole. */
  GIN("gin", 100),
  /** SPGIST_DEFAULT_FILLFACTOR ({@code src/include/access/spgist_private.h}). */
  SPGIST("spgist", 80),
  /** BRIN has no fillfactor. */
  BRIN("brin", 100);

  private final String amname;
  private final int defaultFillfactor;

  IndexAccessMethod(String amname, int defaultFillfactor) {
    this.amname = amname;
    this.defaultFillfactor = defaultFillfactor;
  }

  public String amname() {
    return amname;
  }

  /** The fillfactor a build of an index of this method uses when its reloptions set none. */
  public int defaultFillfactor() {
    return defaultFillfactor;
  }

  /** The method named {@code amname}, or null for one this tool does not read (an extension's). */
  public static IndexAccessMethod named(String amname) {
    for (IndexAccessMethod m : values()) {
      if (m.amname.equals(amname)) {
        return m;
      }
    }
    return null;
  }

  /**
   * The page counter of this method, under {@code rules}, for an index of {@code fillfactor}
   * (a btree's leaves are counted as a build would fill them again); one serves one thread.
   */
  public IndexPageCounter counter(PageRules rules, int fillfactor) {
    return switch (this) {
      case BTREE -> new BtreePage(rules, fillfactor);
      case HASH -> new HashPage(rules);
      case GIST -> new GistPage(rules);
      case GIN -> new GinPage(rules);
      case SPGIST -> new SpGistPage(rules);
      case BRIN -> new BrinPage(rules);
    };
  }
}
