#include "extract/dual/face_colors.h"

#include "graph/render_graph.h"

namespace isoscope {

DualFaceColorsPass::DualFaceColorsPass(Context& context) : DualPass(context, "extract/dual/face_colors", {}) {}

void DualFaceColorsPass::add(RenderGraph& graph, const std::string& name, const DualResources& r,
                             const DualPush& push) const
{
    std::vector<ResourceUse> uses = {{r.meshCounters, Use::StorageRead, 0}, {r.faceColors, Use::StorageWrite, 1},
                                     {r.halfedges, Use::StorageRead, 2},    {r.outgoing, Use::StorageRead, 3},
                                     {r.outgoingCounts, Use::StorageRead, 4}};
    for (uint32_t colorClass = kFaceColors; colorClass < kEdgeColors; ++colorClass)
        graph.addComputePass(name, program_, uses, [this, uses, &push, colorClass](VkCommandBuffer cmd, const RenderGraph& g) {
            DualPush classPush = push;
            classPush.colorClass = colorClass;
            bind(cmd, g, uses, classPush, push.iso);
            program_.dispatchLine(cmd, ceilDiv(push.extraFaceCapacity, program_.localSize()[0]));
        });
}

} // namespace isoscope
