package io.dataflow.core;

/** A monitor that reports its {@link MonitorRevision}. */
public interface RevisionedMonitor extends Monitor {
  /** The current revision. */
  MonitorRevision revision();
}
