/**
 * How a relation's blocks are read from a store: its files' names (relpath.c's rules), a fork's
 * segment files as one block space, the fork a started server has as a relation's main fork
 * (an unlogged one's init fork where the start resets it), the sorted block lists a scan reads,
 * the prefetch stream that keeps reads in flight and combines neighbours, and the counters of
 * what was read. Uses {@code store}.
 */
package io.pgbloat.io.read;
