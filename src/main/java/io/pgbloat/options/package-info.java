/**
 * The options, described once: each {@link io.pgbloat.options.Option}'s name, its camel-case
 * data-source name, the surfaces that take it (command line, {@code conf/pgbloat.conf}, the
 * data source), its rule (what it accepts and the one message when it does not), its default
 * and its help. The command line, the configuration file and the data source all parse into
 * {@link io.pgbloat.options.OptionValues}; the help text and docs/options.md's table are rendered
 * from the same descriptions ({@link io.pgbloat.options.OptionDocs}). Knows nothing of Spark.
 */
package io.pgbloat.options;
