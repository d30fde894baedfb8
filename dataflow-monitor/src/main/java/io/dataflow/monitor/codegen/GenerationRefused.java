package io.dataflow.monitor.codegen;

/**
 * Code generation declined a program for a reason that is not a bug of the generator: the
 * program is too large for one generated class (constants, a method's code, a jump), or the
 * JVM refused the class it was given (verification, class format, linkage). The interpreter
 * runs the program instead, and the monitor says why ({@code DataflowMonitor.codePathReason()}).
 * Any other exception out of code generation is a bug and propagates.
 *
 * <p>Checked, so that every caller of {@link FusedCompiler#compile} decides what the fallback
 * is instead of catching broadly.
 */
public final class GenerationRefused extends Exception {
  private static final long serialVersionUID = 1L;

  GenerationRefused(String reason, Throwable cause) {
    super(reason, cause);
  }

  /** Why the program has no generated code, in one line. */
  public String reason() {
    return getMessage();
  }
}
