#pragma once
// The draw arguments of a quad mesh (shaders/render/quad_draw_args.comp):
// six vertices per written quad, a VkDrawIndirectCommand the raster pass
// draws draw_quads.vert with, made on the GPU from the mesh's counters.
#include <string>

#include "core/shader.h"
#include "graph/graph_desc.h"

namespace isoscope {

class RenderGraph;

// Adds the pass; returns the 16-byte transient holding the command.
ResourceId addQuadDrawArgsPass(RenderGraph& graph, const ComputeProgram& program, ResourceId meshCounters,
                               const std::string& name);
// The same into `args`, a buffer of 16 bytes or more (a host's draw, imported).
void addQuadDrawArgsPass(RenderGraph& graph, const ComputeProgram& program, ResourceId meshCounters, ResourceId args,
                         const std::string& name);

} // namespace isoscope
