package io.pgbloat.reuse;

import java.io.Serializable;

/**
 * One chunk of one relation of a plan.
 *
 * @param relation the relation's index in the plan
 * @param chunk the chunk's number ({@link KeptChunk#chunk})
 */
public record ChunkKey(int relation, long chunk) implements Serializable {}
