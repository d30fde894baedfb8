/**
 * Live reconfiguration and the entry point for every runtime:
 * {@code ReconfigurableDataflowRuntimeBuilder}, {@code RuntimeOptions}, requests and their
 * acknowledgements, the cutover observer ({@code io.dataflow.reconfig}). Planning, the ordered
 * cutover and the plan records ({@code io.dataflow.reconfig.internal}) are not exported.
 */
module io.dataflow.reconfig {
  requires transitive io.dataflow.core;
  requires transitive io.dataflow.monitor;
  requires transitive io.dataflow.io;
  requires com.fasterxml.jackson.databind;
  requires org.slf4j;

  exports io.dataflow.reconfig;
  // The keyed pipeline plans requests with the same planner.
  exports io.dataflow.reconfig.internal to io.dataflow.pipeline;
}
