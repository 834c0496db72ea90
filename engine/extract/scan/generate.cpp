#include "extract/scan/generate.h"

#include "graph/render_graph.h"

namespace isoscope {

ScanGeneratePass::ScanGeneratePass(Context& context, bool weld, bool edgeCodes)
    : ScanPass(context, "extract/scan/generate",
               {{"WORKGROUP_SIZE", kWorkgroupSize}, {"WELD", weld ? 1u : 0u}, {"EDGE_CODES", edgeCodes ? 1u : 0u}})
{
}

void ScanGeneratePass::add(RenderGraph& graph, const ScanResources& r, const ScanSlab& slab, const float& iso) const
{
    ResourceId seamBelow = r.seams[slab.index % 2], seamAbove = r.seams[(slab.index + 1) % 2];
    // The first slab reads no seam; declared as written, so the graph does not
    // see a transient read before anything wrote it.
    Use below = slab.index == 0 ? Use::StorageWrite : Use::StorageRead;
    graph.addComputePass(
        "generate", program_,
        {{r.volume, Use::StorageRead, 0}, {r.caseTable, Use::StorageRead, 1}, {r.list, Use::StorageRead, 2},
         {r.rowStarts, Use::StorageRead, 3}, {r.slabTotals, Use::StorageRead, 4}, {r.slabBase, Use::StorageRead, 5},
         {seamBelow, below, 6}, {seamAbove, Use::StorageWrite, 7}, {r.vertices, Use::StorageWrite, 8},
         {r.indices, Use::StorageWrite, 9}, {r.counters, Use::StorageWrite, 10}, {r.edgeCodes, Use::StorageWrite, 11},
         {r.dispatch, Use::IndirectArgs}},
        [this, r, &slab, seamBelow, seamAbove, &iso](VkCommandBuffer cmd, const RenderGraph& g) {
            bindSlab(cmd,
                     {slabPlanes(g, r.volume, slab), g.storage(r.caseTable), g.storage(r.list),
                      g.storage(r.rowStarts), g.storage(r.slabTotals), g.storage(r.slabBase), g.storage(seamBelow),
                      g.storage(seamAbove), g.storage(r.vertices), g.storage(r.indices), g.storage(r.counters),
                      g.storage(r.edgeCodes)},
                     slab, iso);
            vkCmdDispatchIndirect(cmd, g.buffer(r.dispatch), 0);
        });
}

} // namespace isoscope
