package io.pgbloat.changes;

import io.pgbloat.io.read.Fork;

/**
 * One fork of one relation file, as WAL names it: RelFileLocator ({@code
 * src/include/storage/relfilelocator.h}: spcOid, dbOid, relNumber) and the fork. A shared
 * relation's database is 0; relNumber is the file's name (pg_class.relfilenode, or the
 * relation map's for a mapped catalog), not the relation's OID.
 */
public record RelationFork(long tablespace, long database, long relNumber, Fork fork) {}
