#include "graph/compute_pass.h"

#include <algorithm>

#include "core/error.h"
#include "graph/render_graph.h"

namespace isoscope {

ComputePass::ComputePass(Context& context, std::string_view shader, const SpecValues& values,
                         const std::vector<PushMember>& pushMembers)
    : program_(context, loadShader(shader), values)
{
    checkPushLayout(program_.name(), program_.pushMembers(), pushMembers);
}

void ComputePass::bindUses(VkCommandBuffer cmd, const RenderGraph& graph, const std::vector<ResourceUse>& uses,
                           const void* pushConstants, uint32_t pushConstantBytes) const
{
    std::vector<DescriptorInfo> descriptors(program_.bindings().size(), DescriptorInfo(VK_NULL_HANDLE));
    std::vector<bool> bound(descriptors.size(), false);
    for (const ResourceUse& use : uses) {
        if (use.binding == kNoBinding)
            continue;
        if (use.binding < 0 || size_t(use.binding) >= descriptors.size())
            fail("pass of shader " + program_.name() + " binds binding " + std::to_string(use.binding) +
                 ", which the shader lacks (engine bug)");
        descriptors[use.binding] = graph.storage(use.resource);
        bound[use.binding] = true;
    }
    if (std::find(bound.begin(), bound.end(), false) != bound.end())
        fail("pass of shader " + program_.name() + " leaves a binding unbound (engine bug)");
    program_.bind(cmd, std::span<const DescriptorInfo>(descriptors), pushConstants, pushConstantBytes);
}

} // namespace isoscope
