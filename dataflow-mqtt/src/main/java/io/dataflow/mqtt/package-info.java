/**
 * MQTT for a runtime (docs/mqtt.md). {@link io.dataflow.mqtt.MqttTransport} is the entry: built
 * from {@link io.dataflow.mqtt.MqttOptions}, it attaches to a
 * {@code ReconfigurableDataflowRuntimeBuilder} one source per input stream (topic = the stream's
 * name or its route), the {@code mqtt} destination publishing every output stream, and the
 * control route (requests on the control topic, acknowledgements on {@code <control>/ack});
 * {@link io.dataflow.mqtt.MqttStatus} is its connection's state (attempts, last error, counts).
 * Bad payloads are {@link io.dataflow.mqtt.MqttPayloadException}s, a bad setup an
 * {@link io.dataflow.mqtt.MqttConfigException}.
 *
 * <p>Not here: the Paho client, the reconnect loop and the payload codec
 * ({@code io.dataflow.mqtt.internal}); the cutover that rebinds subscriptions is the runtime's
 * own (docs/reconfiguration.md), this module only supplies the sources it opens and closes.
 */
package io.dataflow.mqtt;
