package io.dataflow.reconfig;

import io.dataflow.core.spi.OutputWriter;
import io.dataflow.core.spi.Source;

/**
 * Creates the sources and destinations a request describes by type. Validation is
 * resource-free (planning calls it); creation happens only when a plan is applied.
 */
public interface IoFactory {
  /** Checks a source description without opening anything. */
  void validateSource(IoSpec spec);

  /** Creates (but does not open) a source. */
  Source createSource(String name, IoSpec spec) throws Exception;

  /**
   * Creates (but does not open) a source for the replacement program {@code program}, which
   * declares the input streams it will deliver (their declared types, say). The default ignores
   * the program.
   */
  default Source createSource(String name, IoSpec spec,
      io.dataflow.monitor.DataflowProgram program) throws Exception {
    return createSource(name, spec);
  }

  /**
   * The source a new input stream gets when a request names none for it (no source of the
   * stream's name, no explicit binding), or null for none: the stream then has no values until
   * a later request gives it a source. A transport with one source per stream (MQTT) subscribes
   * the stream's default topic this way. The planner names the source after the stream and
   * validates the spec like one the request named. The default gives none.
   */
  default IoSpec defaultSource(String stream) {
    return null;
  }

  /**
   * Checks the compiled replacement against what this factory's endpoints would do with its
   * streams, resource-free (planning calls it after compiling, before it plans the input and
   * output): a stream name that a transport would use as a topic colliding with its control
   * topic, say. The default accepts every program.
   *
   * @throws IllegalArgumentException saying what collides and where (the request is rejected
   *     with that message)
   */
  default void validateProgram(io.dataflow.monitor.DataflowProgram candidate,
      ReconfigurationRequest request) {}

  /** Checks a destination description without opening anything. */
  void validateDestination(IoSpec spec);

  /** Creates a destination's writer. */
  OutputWriter createDestination(String name, IoSpec spec) throws Exception;
}
