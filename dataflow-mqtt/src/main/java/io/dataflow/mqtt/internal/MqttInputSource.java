package io.dataflow.mqtt.internal;

import io.dataflow.core.IngressException;
import io.dataflow.core.TickBatch;
import io.dataflow.core.TickShape;
import io.dataflow.core.Value;
import io.dataflow.core.spi.Source;
import io.dataflow.core.spi.SourceContext;
import io.dataflow.mqtt.MqttPayloadException;
import io.dataflow.mqtt.OnBadRecord;
import java.util.function.Consumer;

/**
 * The source of one input stream: one subscription, each message one tick holding that stream.
 * Push-style: Paho's callback thread decodes each message and submits it (waiting for room in
 * the ingress queue, which holds the broker back); the message is acknowledged after admission.
 * Opening subscribes, closing unsubscribes: at a cutover, a source the request keeps stays
 * subscribed, a removed one is closed (unsubscribed) before an added one is opened. Closed at
 * the end of the run (the ingress already closed), it keeps the broker's subscription, so the
 * persistent session collects what is published until the next run with the same client id.
 *
 * <p>Thread-safety: {@link #open} and {@link #close} on the owner thread; deliveries on Paho's.
 */
public final class MqttInputSource implements Source {
  private final String stream;
  private final String topic;
  private final String declaredType;
  private final MqttConnection connection;
  private final OnBadRecord onBadRecord;
  private final Consumer<String> warnings;
  private final TickShape shape;
  private volatile SourceContext context;
  private volatile boolean closed;
  private volatile boolean failed;

  /**
   * The source of {@code stream}, subscribed to {@code topic}.
   *
   * @param declaredType the stream's declared type (null: any), checked before admission
   */
  public MqttInputSource(String stream, String topic, String declaredType,
      MqttConnection connection, OnBadRecord onBadRecord, Consumer<String> warnings) {
    this.stream = stream;
    this.topic = topic;
    this.declaredType = declaredType;
    this.connection = connection;
    this.onBadRecord = onBadRecord;
    this.warnings = warnings;
    this.shape = TickShape.of(stream);
  }

  @Override
  public String name() {
    return stream;
  }

  /** The topic filter this source subscribes to. */
  public String topic() {
    return topic;
  }

  @Override
  public void open(SourceContext ctx) {
    this.context = ctx;
    connection.subscribe(topic, this::deliver);
    connection.start(ctx.threadFactory());
  }

  /** Paho's callback thread: true when the message was admitted (or consumed as bad). */
  private boolean deliver(String from, byte[] payload) {
    if (closed || failed) {
      return false;
    }
    Value v;
    try {
      v = Payloads.decode(from, payload, declaredType);
    } catch (MqttPayloadException e) {
      if (onBadRecord == OnBadRecord.SKIP) {
        connection.countSkipped();
        warnings.accept("skipped bad record " + e.getMessage() + " ("
            + connection.status().skipped() + " skipped so far)");
        return true;
      }
      failed = true;
      context.fail(e);
      return true;
    }
    try {
      context.submit(TickBatch.of(shape.tick(v)), Long.MAX_VALUE);
      return true;
    } catch (IngressException e) {
      return false; // the runtime stopped admitting: the broker keeps the message
    }
  }

  @Override
  public void close() {
    closed = true;
    SourceContext ctx = context;
    if (ctx != null && ctx.isClosed()) {
      connection.release(topic); // the run ends: the session keeps the subscription
    } else {
      connection.unsubscribe(topic); // a cutover removed this source
    }
  }
}
