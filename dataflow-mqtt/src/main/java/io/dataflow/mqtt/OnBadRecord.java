package io.dataflow.mqtt;

/** What a source does with a payload it cannot turn into a value of its input stream. */
public enum OnBadRecord {
  /** The source fails, and with it the run (after every earlier output): the default. */
  FAIL,
  /** The message is skipped, counted ({@link MqttStatus#skipped()}) and reported as a warning. */
  SKIP
}
