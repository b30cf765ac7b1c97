package io.pgbloat.page;

import java.io.Serializable;

/**
 * Why a page was not counted: the block it was found in and a reason naming actual and
 * expected values, in the manner of pg_filedump. Counted in {@code bad_pages}, never fatal.
 *
 * @param block block number within the relation
 * @param reason what is wrong, e.g. "pd_lower 9000 &gt; pd_upper 8000"
 */
public record PageProblem(long block, String reason) implements Serializable {}
