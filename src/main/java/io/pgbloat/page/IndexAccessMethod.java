package io.pgbloat.page;

/**
 * The index access methods of PostgreSQL whose pages this tool reads, by their pg_am.amname
 * ({@code src/include/catalog/pg_am.dat}, the same 13-18).
 */
public enum IndexAccessMethod {
  BTREE("btree"),
  HASH("hash"),
  GIST("gist"),
  GIN("gin"),
  SPGIST("spgist"),
  BRIN("brin");

  private final String amname;

  IndexAccessMethod(String amname) {
    this.amname = amname;
  }

  public String amname() {
    return amname;
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

  /** The page counter of this method; null for btree, which {@link BtreePage} counts as pgstatindex does. */
  public IndexPageCounter counter(PageRules rules) {
    return switch (this) {
      case BTREE -> null;
      case HASH -> new HashPage(rules);
      case GIST -> new GistPage(rules);
      case GIN -> new GinPage(rules);
      case SPGIST -> new SpGistPage(rules);
      case BRIN -> new BrinPage(rules);
    };
  }
}
