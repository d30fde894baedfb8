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

  /** Checks a destination description without opening anything. */
  void validateDestination(IoSpec spec);

  /** Creates a destination's writer. */
  OutputWriter createDestination(String name, IoSpec spec) throws Exception;
}
