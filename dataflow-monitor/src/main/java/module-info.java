/**
 * The stream language: compile a specification to a {@code DataflowProgram} and evaluate it
 * with a {@code DataflowMonitor} ({@code io.dataflow.monitor}). The front end, the evaluator
 * and the code generator are internal packages of this module and are not exported;
 * {@code io.dataflow.monitor.internal} is exported to the pipeline module (and the testkit, whose tests check it) only.
 */
module io.dataflow.monitor {
  requires transitive io.dataflow.core;
  requires org.slf4j;
  // sun.misc.Unsafe: the keyed kernel reads and writes a vector's packed kinds as bytes; the
  // snapshot walk reads and writes node fields by their offsets (eval.FieldAccess).
  requires jdk.unsupported;
  // The generated classes are written with ASM; asm-util (optional) only lists and checks them.
  requires org.objectweb.asm;
  requires static org.objectweb.asm.util;

  exports io.dataflow.monitor;
  // The keyed pipeline's columns entry into KeyedMonitor (internal machinery, not an API).
  exports io.dataflow.monitor.internal to io.dataflow.pipeline, io.dataflow.testkit;
}
