package io.pgbloat.changes;

import io.pgbloat.io.read.Fork;

/**
 * One fork of one relation file, as WAL names it: RelFileLocator ({@code
 * src/include/storage/relfilelocator.h}: spcOid, dbOid, relNumber) and the fork. A shared
 * relation's database is 0; relNumber is the file's name (pg_class.relfilenode, or the
 * relation map's for a mapped catalog), not the relation's OID.
 */
public record RelationFork(long tablespace, long database, long relNumber, Fork fork) {
  /** DEFAULTTABLESPACE_OID, pg_default: {@code base/} ({@code src/include/catalog/pg_tablespace.dat}). */
  public static final long DEFAULT_TABLESPACE = 1663;
  /** GLOBALTABLESPACE_OID, pg_global: {@code global/}, the shared catalogs'. */
  public static final long GLOBAL_TABLESPACE = 1664;

  /**
   * The main fork at {@code relpath}, as GetRelationPath ({@code src/common/relpath.c}) forms
   * it: {@code global/<rel>}, {@code base/<db>/<rel>}, or
   * {@code pg_tblspc/<spc>/<version directory>/<db>/<rel>}.
   *
   * @throws IllegalArgumentException for a path of no such form
   */
  public static RelationFork mainOf(String relpath) {
    String[] p = relpath.split("/");
    try {
      if (p.length == 2 && p[0].equals("global")) {
        return new RelationFork(GLOBAL_TABLESPACE, 0, Long.parseLong(p[1]), Fork.MAIN);
      }
      if (p.length == 3 && p[0].equals("base")) {
        return new RelationFork(DEFAULT_TABLESPACE, Long.parseLong(p[1]), Long.parseLong(p[2]), Fork.MAIN);
      }
      if (p.length == 5 && p[0].equals("pg_tblspc")) {
        return new RelationFork(Long.parseLong(p[1]), Long.parseLong(p[3]), Long.parseLong(p[4]), Fork.MAIN);
      }
    } catch (NumberFormatException e) {
      // falls through to the refusal
    }
    throw new IllegalArgumentException("no relation file path: " + relpath);
  }
}
