package io.dataflow.pipeline.micrometer;

import io.dataflow.pipeline.DataflowPipeline;
import io.dataflow.pipeline.PipelineStatus;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.List;
import java.util.Objects;
import java.util.function.ToDoubleFunction;

/**
 * Exposes a pipeline's {@link PipelineStatus} as Micrometer meters, all tagged
 * {@code pipeline=<name>}: counters {@code dataflow.pipeline.ticks.in} and
 * {@code .ticks.out}; gauges {@code .lanes}, {@code .lanes.paused}, {@code .pending},
 * {@code .keys}, {@code .keys.expired}, {@code .queue}, {@code .ready} (1 or 0) and
 * {@code .monitor.revision}. Micrometer is an optional dependency: only a service that binds
 * these meters needs it.
 *
 * <pre>{@code
 * new PipelineMetrics(pipeline, "fleet").bindTo(registry);
 * }</pre>
 */
public final class PipelineMetrics implements MeterBinder {
  private final DataflowPipeline pipeline;
  private final List<Tag> tags;

  /** Meters of {@code pipeline}, tagged with {@code name}. */
  public PipelineMetrics(DataflowPipeline pipeline, String name) {
    this.pipeline = Objects.requireNonNull(pipeline, "pipeline");
    this.tags = List.of(Tag.of("pipeline", Objects.requireNonNull(name, "name")));
  }

  @Override
  public void bindTo(MeterRegistry registry) {
    FunctionCounter.builder("dataflow.pipeline.ticks.in", pipeline,
        p -> p.status().run().ticksIn()).tags(tags).description("ticks evaluated, all keys")
        .register(registry);
    FunctionCounter.builder("dataflow.pipeline.ticks.out", pipeline,
        p -> p.status().run().ticksOut()).tags(tags).description("output ticks, all keys")
        .register(registry);
    gauge(registry, "dataflow.pipeline.lanes", "lanes owned by the drivers",
        s -> s.lanesByDriver().stream().mapToInt(List::size).sum());
    gauge(registry, "dataflow.pipeline.lanes.paused", "lanes paused at the source",
        s -> s.pausedLanes().size());
    gauge(registry, "dataflow.pipeline.pending", "records admitted, not yet acknowledged",
        s -> s.pendingByLane().values().stream().mapToLong(Long::longValue).sum());
    gauge(registry, "dataflow.pipeline.keys", "keys with state", PipelineStatus::keysResident);
    gauge(registry, "dataflow.pipeline.keys.expired", "keys forgotten by idle expiry",
        PipelineStatus::keysExpired);
    gauge(registry, "dataflow.pipeline.queue", "records waiting for a driver",
        s -> s.run().queueDepth());
    gauge(registry, "dataflow.pipeline.monitor.revision", "the monitor revision",
        s -> s.run().monitorRevision().root());
    Gauge.builder("dataflow.pipeline.ready", pipeline, p -> p.isReady() ? 1 : 0).tags(tags)
        .description("partitions assigned and the sink's probe passing").register(registry);
  }

  private void gauge(MeterRegistry registry, String name, String description,
      ToDoubleFunction<PipelineStatus> value) {
    Gauge.builder(name, pipeline, p -> value.applyAsDouble(p.status())).tags(tags)
        .description(description).register(registry);
  }
}
