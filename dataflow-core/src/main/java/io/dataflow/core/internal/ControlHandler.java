package io.dataflow.core.internal;

import io.dataflow.core.spi.ControlRequest;

/**
 * Handles control items on the owner thread. The runtime has flushed its pending input window
 * before the call, so every tick admitted before the item has been evaluated.
 *
 * <p>Thread-safety: called on the owner thread only; must not block for long.
 */
public interface ControlHandler {
  /**
   * Handles one control item.
   *
   * @throws Exception to end the run: the runtime drains its output and fails with this error
   *     as the primary cause
   */
  void onControl(ControlRequest request, RuntimeContext runtime) throws Exception;
}
