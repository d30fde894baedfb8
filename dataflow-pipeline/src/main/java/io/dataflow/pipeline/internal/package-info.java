/**
 * The keyed pipeline's machinery: the controller and driver agents, the messages between them
 * ({@code ThreadControl}, {@code DriverEvent}), barriers, lane ledgers and backpressure gates,
 * and the runtime that runs the agents on threads. The lifecycle plumbing (first-fatal gate,
 * teardown, sink closer, exit report) is core's, not copied here. Not an API.
 */
package io.dataflow.pipeline.internal;
