package io.dataflow.reconfig.internal;

import java.util.List;
import java.util.Map;
import java.util.Set;
import io.dataflow.reconfig.IoSpec;

/**
 * How the output side changes: which destinations stay, are added (described, not yet
 * opened) or removed, and the streams routed to each afterwards.
 *
 * @param unchanged destinations that stay
 * @param added destinations to create, by name
 * @param removed destinations to flush and close
 * @param routing the streams each destination receives afterwards (null = every stream)
 * @param moved output streams an explicit binding moved to another destination
 * @param interfaceChanged the set of output names changed or a stream moved
 */
public record OutputPipelineReconfigurationPlan(List<String> unchanged,
    Map<String, IoSpec> added, List<String> removed, Map<String, Set<String>> routing,
    List<String> moved, boolean interfaceChanged) {}
