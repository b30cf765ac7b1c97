/**
 * What a rewrite or a REINDEX would give back, modelled from a relation's estimated totals:
 * a table's VACUUM FULL ({@link io.pgbloat.rebuild.TableRewrite}, a TOAST table's
 * {@link io.pgbloat.rebuild.ToastRewrite}) and a fresh build of an index of each method
 * ({@link io.pgbloat.rebuild.BtreeRebuild}, {@link io.pgbloat.rebuild.HashRebuild},
 * {@link io.pgbloat.rebuild.GinRebuild}, {@link io.pgbloat.rebuild.BrinRebuild}), each as the
 * PostgreSQL source it cites writes its pages (a hash build's overflow pages by
 * {@link io.pgbloat.rebuild.HashBuildOverflow}), from what {@link io.pgbloat.rebuild.IndexBuild}
 * says a build starts from. Uses {@code stats} for the estimates and {@code page} for the page
 * layouts.
 */
package io.pgbloat.rebuild;
