#pragma once
// What most pass files hold: a compute program whose push constants were
// checked against the shader's block when it was made (checkPushLayout), and
// a way to add it to a graph that binds exactly what the pass declares: each
// use with a binding is bound to its whole buffer, so the declaration the
// graph checks and the descriptors the shader gets are one list.
#include <string_view>
#include <vector>

#include "core/shader.h"
#include "graph/graph_desc.h"

namespace isoscope {

class Context;
class RenderGraph;

class ComputePass {
protected:
    ComputePass(Context& context, std::string_view shader, const SpecValues& values,
                const std::vector<PushMember>& pushMembers);

    // Binds the program with one whole-buffer descriptor per use that names
    // a binding, in binding order, and the push constants.
    void bindUses(VkCommandBuffer cmd, const RenderGraph& graph, const std::vector<ResourceUse>& uses,
                  const void* pushConstants, uint32_t pushConstantBytes) const;

    ComputeProgram program_;
};

} // namespace isoscope
