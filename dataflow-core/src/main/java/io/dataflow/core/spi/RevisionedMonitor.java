package io.dataflow.core.spi;

import io.dataflow.core.MonitorRevision;

/** A monitor that reports its {@link MonitorRevision}. */
public interface RevisionedMonitor extends Monitor {
  /** The current revision. */
  MonitorRevision revision();
}
