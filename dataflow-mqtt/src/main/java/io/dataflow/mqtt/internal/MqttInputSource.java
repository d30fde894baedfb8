package io.dataflow.mqtt.internal;

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
 * Pull-style: the connection keeps what arrives ({@link MqttConnection#drain}); the owner
 * thread's poll decodes each message and offers it without waiting, and the message is
 * acknowledged after admission; one that does not fit waits for the next poll (the broker's
 * window then holds it back). Opening subscribes, closing unsubscribes: at a cutover, a source
 * the request keeps stays subscribed, a removed one is closed (unsubscribed) before an added one
 * is opened. Closed at
 * the end of the run (the ingress already closed), it keeps the broker's subscription, so the
 * persistent session collects what is published until the next run with the same client id.
 *
 * <p>Thread-safety: owner thread only (the connection's runner and Paho's threads never call it).
 */
public final class MqttInputSource implements Source {
  private final String stream;
  private final String topic;
  private final String declaredType;
  private final MqttConnection connection;
  private final OnBadRecord onBadRecord;
  private final Consumer<String> warnings;
  private final TickShape shape;
  private SourceContext context; // owner thread only, like the rest
  private boolean closed;
  private boolean failed;

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

  @Override
  public int poll(long nowNanos) {
    return connection.drain();
  }

  /** Owner thread (a drain): true when the message was admitted (or consumed as bad). */
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
      failed = context.tryFail(e); // behind what this source delivered before
      return failed;
    }
    return context.offer(TickBatch.of(shape.tick(v)));
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
