package io.pgbloat.catalog;

/**
 * Which relation of the cluster: its database and its OID, unique within it. A shared catalog
 * (stored once for the cluster, listed by every database) has the empty database name.
 */
public record RelationId(String database, long oid) {}
