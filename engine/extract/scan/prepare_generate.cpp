#include "extract/scan/prepare_generate.h"

#include <cstddef>

#include "core/context.h"
#include "graph/render_graph.h"

namespace isoscope {

namespace {

// `Push` in prepare_generate.comp.
struct PreparePush {
    uint32_t workgroupSize, maxGroupsX, listCapacity, firstSlab;
};

} // namespace

ScanPreparePass::ScanPreparePass(Context& context)
    : program_(context, loadShader("extract/scan/prepare_generate"))
{
    checkPushLayout(program_.name(), program_.pushMembers(),
                    {ISOSCOPE_PUSH_MEMBER(PreparePush, workgroupSize), ISOSCOPE_PUSH_MEMBER(PreparePush, maxGroupsX),
                     ISOSCOPE_PUSH_MEMBER(PreparePush, listCapacity), ISOSCOPE_PUSH_MEMBER(PreparePush, firstSlab)});
}

void ScanPreparePass::add(RenderGraph& graph, const ScanResources& r, const ScanSlab& slab,
                          uint32_t generateWorkgroupSize) const
{
    PreparePush push{generateWorkgroupSize, graph.context().info().maxComputeWorkGroupCount[0],
                     slab.push.listCapacity, slab.index == 0 ? 1u : 0u};
    graph.addComputePass("prepare", program_,
                         {{r.slabTotals, Use::StorageRead, 0}, {r.slabBase, Use::StorageWrite, 1},
                          {r.dispatch, Use::StorageWrite, 2}, {r.listNeeded, Use::StorageWrite, 3},
                          {r.counters, Use::StorageWrite, 4}},
                         [this, r, push](VkCommandBuffer cmd, const RenderGraph& g) {
                             program_.bind(cmd,
                                           {g.storage(r.slabTotals), g.storage(r.slabBase), g.storage(r.dispatch),
                                            g.storage(r.listNeeded), g.storage(r.counters)},
                                           &push, sizeof push);
                             program_.dispatch(cmd, 1);
                         });
}

} // namespace isoscope
