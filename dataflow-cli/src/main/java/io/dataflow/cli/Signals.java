package io.dataflow.cli;

/**
 * Where SIGTERM and Ctrl-C come from: in a process, the JVM's shutdown hooks ({@link #JVM});
 * in a test, a call of its own, so the command's shutdown path runs without ending the JVM.
 */
interface Signals {
  /** The JVM's shutdown hooks: SIGTERM, Ctrl-C (SIGINT) and {@code System.exit}. */
  Signals JVM = onSignal -> {
    Thread hook = new Thread(onSignal, "dataflow-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    return () -> {
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException ignored) {
        // already shutting down: the hook runs
      }
    };
  };

  /**
   * Runs {@code onSignal} in a thread of its own at the first SIGTERM or Ctrl-C, until the
   * returned handle is removed.
   */
  Handle install(Runnable onSignal);

  /** An installed handler. */
  interface Handle {
    /** Uninstalls the handler; a handler already running goes on. */
    void remove();
  }
}
