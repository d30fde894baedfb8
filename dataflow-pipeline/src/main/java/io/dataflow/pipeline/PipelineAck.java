package io.dataflow.pipeline;

import io.dataflow.reconfig.ReconfigurationAck;
import java.util.List;

/**
 * The one acknowledgement of a reconfiguration applied across a pipeline's drivers, sent after
 * every driver applied it at the same position of every lane.
 *
 * @param ack both revisions, both change flags and the plan, as a single runtime reports them
 *     ({@code effectiveTick} is -1: every key continues its own tick count)
 * @param lanes the lanes whose keys were moved to the new program
 * @param keys how many keys were moved (each the same way)
 */
public record PipelineAck(ReconfigurationAck ack, List<Integer> lanes, long keys) {
  /** Copies the lanes. */
  public PipelineAck {
    lanes = List.copyOf(lanes);
  }

  /** The CLI's one-line rendering. */
  public String toLine() {
    return ack.toLine() + " lanes=" + lanes.size() + " keys=" + keys;
  }
}
