package io.pgbloat.it;

/** What PostgreSQL says of a table's total size, in SQL, for the totals' ground truth. */
final class TotalSizes {
  private TotalSizes() {}

  /**
   * For the pg_class row {@code c}: the main forks' bytes of what pg_total_relation_size counts
   * (the table, its TOAST table, the indexes of both; its free space and visibility map forks
   * excepted), summed over the leaf partitions of a partitioned table (pg_partition_tree lists
   * no row for a table that is no partition).
   */
  static final String MAIN_FORKS = """
      (SELECT sum(pg_relation_size(p.oid) + coalesce(pg_relation_size(nullif(p.reltoastrelid, 0)), 0)
        + (SELECT coalesce(sum(pg_relation_size(i.indexrelid)), 0) FROM pg_index i
           WHERE i.indrelid IN (p.oid, p.reltoastrelid)))
       FROM pg_class p WHERE p.oid IN (SELECT relid FROM pg_partition_tree(c.oid) WHERE isleaf
         UNION SELECT c.oid WHERE c.relkind <> 'p'))""";
}
