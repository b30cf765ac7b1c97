package io.pgbloat.sample;

import io.pgbloat.io.SegmentedFile;
import java.io.Serializable;

/**
 * The blocks of one relation that one range reads.
 *
 * @param relation the relation's index in the plan
 * @param file where its blocks are
 * @param blocks which of its blocks this range reads
 */
public record RelationSlice(int relation, SegmentedFile file, BlockList blocks) implements Serializable {}
