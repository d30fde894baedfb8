/**
 * MQTT transport for a runtime: a source per input stream, a sink publishing every output
 * stream, and a control route carrying reconfiguration requests and their acknowledgements, all
 * over one Paho connection with a persistent session ({@code io.dataflow.mqtt}). The connection
 * and its reconnect loop, the payload codec and the route's decoding
 * ({@code io.dataflow.mqtt.internal}) are not exported.
 */
module io.dataflow.mqtt {
  requires transitive io.dataflow.core;
  requires transitive io.dataflow.io;
  requires transitive io.dataflow.reconfig;
  requires org.eclipse.paho.client.mqttv3;
  requires com.fasterxml.jackson.core;
  requires com.fasterxml.jackson.databind;
  requires org.slf4j;

  exports io.dataflow.mqtt;
}
