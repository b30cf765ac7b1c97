package io.pgbloat.it;

import static io.pgbloat.page.PageHeader.BLCKSZ;
import static io.pgbloat.page.PageHeader.MAXIMUM_ALIGNOF;
import static io.pgbloat.page.PageHeader.SIZE_OF_PAGE_HEADER_DATA;

import io.pgbloat.testing.PostgresCluster;
import java.util.List;
import java.util.Map;

/**
 * What the statistics-based bloat query in common use says of one table: the estimate of
 * ioguix/pgsql-bloat-estimation ({@code table/table_bloat.sql}), recomputed here from the same
 * inputs (reltuples and relpages of the table and its TOAST table, per-column null_frac and
 * avg_width from pg_stats, the fillfactor from reloptions) by its published formula:
 *
 * <pre>
 *   tuple    = 4 + hdr + data + 2·ma − (hdr mod ma or ma) − (⌈data⌉ mod ma or ma)
 *              hdr = 23 (+ a null bitmap if any column has nulls), data = Σ (1 − null_frac)·avg_width
 *   expected = ⌈reltuples / ((BLCKSZ − 24)·fillfactor / (tuple·100))⌉ + ⌈toast reltuples / 4⌉
 *   bloat    = (relpages + toast relpages − expected) · BLCKSZ
 * </pre>
 *
 * for the table and its TOAST table together. Used only to print beside the tool's figure.
 */
record StatisticsBloatEstimate(long bloatBytes) {
  /** Needs fresh statistics: run VACUUM (ANALYZE) on {@code table} first. */
  static StatisticsBloatEstimate of(PostgresCluster pg, String table) {
    Map<String, String> t = pg.queryCsv("postgres", "SELECT c.reltuples, c.relpages,"
        + " coalesce(x.reltuples, 0) AS toast_tuples, coalesce(x.relpages, 0) AS toast_pages,"
        + " coalesce(substring(array_to_string(c.reloptions, ' ') FROM 'fillfactor=([0-9]+)')::int, 100) AS ff"
        + " FROM pg_class c LEFT JOIN pg_class x ON x.oid = c.reltoastrelid WHERE c.oid = '" + table + "'::regclass")
        .get(0);
    List<Map<String, String>> columns = pg.queryCsv("postgres", "SELECT null_frac, avg_width FROM pg_stats"
        + " WHERE schemaname = 'public' AND tablename = '" + table + "' AND NOT inherited");
    double data = 0;
    boolean nulls = false;
    for (Map<String, String> c : columns) {
      double nullFrac = Double.parseDouble(c.get("null_frac"));
      nulls |= nullFrac > 0;
      data += (1 - nullFrac) * Double.parseDouble(c.get("avg_width"));
    }
    int header = 23 + (nulls ? (7 + columns.size()) / 8 : 0);
    int headerRest = header % MAXIMUM_ALIGNOF == 0 ? MAXIMUM_ALIGNOF : header % MAXIMUM_ALIGNOF;
    int dataRest = (int) Math.ceil(data) % MAXIMUM_ALIGNOF == 0 ? MAXIMUM_ALIGNOF : (int) Math.ceil(data) % MAXIMUM_ALIGNOF;
    double tuple = 4 + header + data + 2 * MAXIMUM_ALIGNOF - headerRest - dataRest;
    double fillfactor = Double.parseDouble(t.get("ff"));
    double tuples = Math.max(0, Double.parseDouble(t.get("reltuples")));
    double expected = Math.ceil(tuples / ((BLCKSZ - SIZE_OF_PAGE_HEADER_DATA) * fillfactor / (tuple * 100)))
        + Math.ceil(Math.max(0, Double.parseDouble(t.get("toast_tuples"))) / 4);
    double pages = Double.parseDouble(t.get("relpages")) + Double.parseDouble(t.get("toast_pages"));
    return new StatisticsBloatEstimate(Math.round((pages - expected) * BLCKSZ));
  }
}
