#include "extract/dual/halfedges.h"

#include "graph/render_graph.h"

namespace isoscope {

DualHalfedgesPass::DualHalfedgesPass(Context& context) : DualPass(context, "extract/dual/halfedges", {}) {}

void DualHalfedgesPass::add(RenderGraph& graph, const std::string& name, const DualResources& r,
                            const DualPush& push) const
{
    std::vector<ResourceUse> uses = {{r.indices, Use::StorageRead, 0},     {r.meshCounters, Use::StorageWrite, 1},
                                     {r.halfedges, Use::StorageWrite, 2},  {r.outgoing, Use::StorageWrite, 3},
                                     {r.outgoingCounts, Use::StorageWrite, 4}, {r.counters, Use::StorageWrite, 5}};
    // One invocation per halfedge the method's buffers hold; those past the mesh's faces return.
    uint64_t halfedges = 4 * uint64_t(push.extraFaceCapacity);
    graph.addComputePass(name, program_, uses, [this, uses, &push, halfedges](VkCommandBuffer cmd, const RenderGraph& g) {
        bind(cmd, g, uses, push, push.iso);
        program_.dispatchLine(cmd, ceilDiv(halfedges, program_.localSize()[0]));
    });
}

DualTwinsPass::DualTwinsPass(Context& context) : DualPass(context, "extract/dual/twins", {}) {}

void DualTwinsPass::add(RenderGraph& graph, const std::string& name, const DualResources& r,
                        const DualPush& push) const
{
    std::vector<ResourceUse> uses = {{r.meshCounters, Use::StorageRead, 0}, {r.vertexHalfedges, Use::StorageWrite, 1},
                                     {r.halfedges, Use::StorageWrite, 2},   {r.outgoing, Use::StorageRead, 3},
                                     {r.outgoingCounts, Use::StorageRead, 4}};
    uint64_t halfedges = 4 * uint64_t(push.extraFaceCapacity);
    graph.addComputePass(name, program_, uses, [this, uses, &push, halfedges](VkCommandBuffer cmd, const RenderGraph& g) {
        bind(cmd, g, uses, push, push.iso);
        program_.dispatchLine(cmd, ceilDiv(halfedges, program_.localSize()[0]));
    });
}

} // namespace isoscope
