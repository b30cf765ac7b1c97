package io.pgbloat.testing.workload;

import java.util.List;

/**
 * One table of a seed: its shape (the width of its text, the share of NULLs, a TOASTed
 * column, fillfactor, unlogged, partitions), its load, and its indexes.
 *
 * @param partitioning "" for a plain table, else "range", "list", "hash" or "nested"
 * @param hotUpdates per cent of rows updated on a non-indexed column (HOT where room allows)
 * @param coldUpdates per cent of rows updated on an indexed column (never HOT)
 * @param deletes per cent of rows deleted
 * @param vacuum "none", "vacuum", "vacuum-notruncate" or "vacuum-truncate"
 */
public record TablePlan(String name, int rows, int width, int nullPercent, boolean toast, int fillfactor,
    boolean unlogged, String partitioning, int hotUpdates, int coldUpdates, int deletes, String vacuum,
    boolean analyze, boolean reinsert, List<IndexPlan> indexes) {
}
