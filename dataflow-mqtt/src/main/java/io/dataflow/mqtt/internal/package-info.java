/**
 * The machinery behind {@code io.dataflow.mqtt}: {@code MqttConnection} (one Paho client, a
 * persistent session, subscriptions by topic, manual acknowledgement after admission, the
 * reconnect duty cycle on the {@code Clock}), {@code Payloads} (JSON5 payloads to values and
 * back, with the type check of typed inputs) and {@code ControlMessages} (a control message to a
 * request, an acknowledgement to JSON). Not exported.
 */
package io.dataflow.mqtt.internal;
