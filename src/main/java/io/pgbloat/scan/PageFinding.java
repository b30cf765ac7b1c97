package io.pgbloat.scan;

import java.io.Serializable;

/**
 * A bad page or file, reported against its relation.
 *
 * @param relation the relation's index in the plan
 * @param block the block, or -1 when the finding concerns the relation's files
 * @param reason what is wrong
 */
public record PageFinding(int relation, long block, String reason) implements Serializable {}
