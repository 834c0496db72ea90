#pragma once
// Dual Marching Cubes, before its passes: the edge hash table emptied (every
// key and vertex slot NO_ENTRY), the method's counters and the block
// classification's state zeroed, by transfer fills.
#include <functional>
#include <string>

#include "extract/dual/dual_layout.h"

namespace isoscope {

class RenderGraph;

// `recorded`, where given, is called each time the pass records.
void addClearTablePass(RenderGraph& graph, const std::string& name, const DualResources& r,
                       std::function<void()> recorded = {});

// Before the halfedge passes: empty outgoing lists, and no halfedge for any
// vertex (a vertex no quad uses keeps NO_ENTRY).
void addClearHalfedgesPass(RenderGraph& graph, const std::string& name, const DualResources& r);

} // namespace isoscope
