/**
 * The one pass over a compressed backup: its relation files' pages counted as the archive
 * decodes to be indexed, before the catalog, the commit log or pg_control are known
 * ({@link io.pgbloat.pass.IndexingPassCounter}, each file's {@link io.pgbloat.pass.FileCounts}),
 * then settled into a task's results once the plan is made
 * ({@link io.pgbloat.pass.IndexingPassCounts}). Tuples whose outcome the hint bits do not tell
 * are counted both ways under their key ({@link io.pgbloat.pass.TupleOutcomeKey},
 * {@link io.pgbloat.pass.AssumedOutcome}) until the commit log decides. Uses {@code scan}'s
 * tallies and everything below it.
 */
package io.pgbloat.pass;
