package io.pgbloat.testing;

import java.util.Optional;

/**
 * Which requests a {@link DelayingProxy} answers itself, with an S3 error, instead of passing
 * them to the server: by each request's number since the plan was set (the first is 1), counted
 * over all of the proxy's connections.
 */
@FunctionalInterface
public interface FaultPlan {
  /** Every request goes to the server. */
  FaultPlan NONE = request -> Optional.empty();

  /** The reply to request number {@code request}; empty to pass it on. */
  Optional<S3ErrorReply> replyTo(long request);

  /** The first {@code count} requests are answered with {@code reply}, the rest pass. */
  static FaultPlan first(long count, S3ErrorReply reply) {
    return request -> request <= count ? Optional.of(reply) : Optional.empty();
  }

  /** Every {@code nth} request (the nth, the 2nth, ...) is answered with {@code reply}. */
  static FaultPlan every(long nth, S3ErrorReply reply) {
    return request -> request % nth == 0 ? Optional.of(reply) : Optional.empty();
  }

  /** The first {@code count} requests pass; every one after is answered with {@code reply}. */
  static FaultPlan after(long count, S3ErrorReply reply) {
    return request -> request > count ? Optional.of(reply) : Optional.empty();
  }
}
