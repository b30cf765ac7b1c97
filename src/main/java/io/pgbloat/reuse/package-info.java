/**
 * What a run keeps for the next one, and what the next one reuses of it: the exact sums of a
 * full scan per chunk of each relation file ({@link RunState}), and, given what a newer copy
 * proves changed ({@code changes/}), which chunks still hold and which blocks must be read
 * again ({@link ChunkReuse}). No Spark and no file format here: the state's rows are written
 * by {@code frame/}.
 */
package io.pgbloat.reuse;
