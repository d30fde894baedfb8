package io.dataflow.core;

/**
 * One consistent view of a runtime, published by the owner thread: every field describes the
 * same moment.
 *
 * @param state the lifecycle state
 * @param ticksIn ticks evaluated
 * @param ticksOut tick rows written
 * @param queueDepth items waiting in the ingress queue
 * @param rejectedOffers offers refused because the queue was full
 * @param lastError the first fatal error's message, or null
 * @param monitorRevision the monitor revision
 * @param interfaceRevision the interface revision
 */
public record RuntimeStatus(RuntimeState state, long ticksIn, long ticksOut, int queueDepth,
    long rejectedOffers, String lastError, MonitorRevision monitorRevision,
    long interfaceRevision) {}
