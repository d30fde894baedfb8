package io.dataflow.reconfig.internal;

import java.util.List;
import java.util.Map;
import java.util.Set;
import io.dataflow.reconfig.IoSpec;

/**
 * How the input side changes: which sources stay, which are added (described, not yet
 * opened), which are removed, and the ownership of each source afterwards.
 *
 * @param unchanged sources that stay as they are
 * @param added sources to create and open, by name
 * @param removed sources to drain and close
 * @param owners the streams each remaining or added source owns afterwards (null = whatever
 *     it delivers)
 * @param moved input streams an explicit binding moved to another source
 * @param interfaceChanged the set of input names changed or a stream moved
 */
public record InputPipelineReconfigurationPlan(List<String> unchanged, Map<String, IoSpec> added,
    List<String> removed, Map<String, Set<String>> owners, List<String> moved,
    boolean interfaceChanged) {}
