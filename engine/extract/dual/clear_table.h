#pragma once
// Dual Marching Cubes, before the cells pass: the edge hash table emptied
// (every key and vertex slot NO_ENTRY) and the method's counters zeroed, by
// transfer fills.
#include <string>

#include "extract/dual/dual_layout.h"

namespace isoscope {

class RenderGraph;

void addClearTablePass(RenderGraph& graph, const std::string& name, const DualResources& r);

} // namespace isoscope
