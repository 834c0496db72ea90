#pragma once
// Dual Marching Cubes, before its passes: the edge hash table emptied (every
// key and vertex slot NO_ENTRY), the method's counters zeroed, the halfedge
// search's lists emptied, by transfer fills.
#include <string>

#include "extract/dual/dual_layout.h"

namespace isoscope {

class RenderGraph;

void addClearTablePass(RenderGraph& graph, const std::string& name, const DualResources& r);

// Before the halfedge passes: empty outgoing lists, and no halfedge for any
// vertex (a vertex no quad uses keeps NO_ENTRY).
void addClearHalfedgesPass(RenderGraph& graph, const std::string& name, const DualResources& r);

} // namespace isoscope
