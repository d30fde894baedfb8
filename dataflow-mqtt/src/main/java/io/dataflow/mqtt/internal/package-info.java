/**
 * The machinery behind {@code io.dataflow.mqtt}: {@code MqttConnection} (one Paho client, a
 * persistent session, subscriptions by topic, the reconnect duty cycle on the {@code Clock}),
 * {@code Inbox} (received messages waiting for the owner thread, acknowledged after admission),
 * {@code MqttInputSource} (the pull-style source of one input stream), {@code ControlRoute}
 * (control messages to requests, acknowledgements to JSON on the reply topic),
 * {@code MqttOutputWriter} (the sink), {@code MqttIoFactory} (the {@code mqtt} type of requests,
 * default sources of new inputs, topic checks at planning), {@code Topics} (routes and
 * collisions) and {@code Payloads} (JSON5 payloads to values and back, with the type check of
 * typed inputs). Not exported. Not here: the cutover that opens and closes the sources
 * ({@code io.dataflow.reconfig}).
 */
package io.dataflow.mqtt.internal;
