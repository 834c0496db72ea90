#pragma once
// The two passes around every extraction (shaders/extract/finalize_mesh.comp):
// "reset_counters" clears the mesh's counts and draw arguments before the
// method's passes, "finalize_mesh" turns the counts into the draw arguments
// after them and raises the overflow flag where a count passed its capacity.
#include <string>

#include "core/shader.h"
#include "mesh/mesh_buffers.h"

namespace isoscope {

class RenderGraph;

void addResetCountersPass(RenderGraph& graph, const MeshBuffers& mesh, const std::string& name);
void addFinalizeMeshPass(RenderGraph& graph, const ComputeProgram& finalize, const MeshBuffers& mesh,
                         const std::string& name);

} // namespace isoscope
