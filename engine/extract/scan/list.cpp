#include "extract/scan/list.h"

#include "compute/block_sum_scan.h"
#include "graph/render_graph.h"

namespace isoscope {

void ScanListPass::add(RenderGraph& graph, const ScanResources& r, const BlockSumScan& sums, const ScanSlab& slab,
                       const float& iso) const
{
    graph.addComputePass(
        "list", program_,
        {{r.volume, Use::StorageRead, 0}, {r.caseTable, Use::StorageRead, 1}, {r.blockSums, Use::StorageRead, 2},
         {r.list, Use::StorageWrite, 3}, {r.rowStarts, Use::StorageWrite, 4}, {r.slabTotals, Use::StorageRead, 5},
         {r.volume, Use::StorageRead, 6}, {r.volume, Use::StorageRead, 7}, {r.spanBits, Use::StorageRead, 8}},
        [this, r, &sums, &slab, &iso](VkCommandBuffer cmd, const RenderGraph& g) {
            DescriptorInfo planes = slabPlanes(g, r.volume, slab);
            bindSlab(cmd,
                     {planes, g.storage(r.caseTable), sums.level0(g, r.blockSums), g.storage(r.list),
                      g.storage(r.rowStarts), g.storage(r.slabTotals), planes, planes, g.storage(r.spanBits)},
                     slab, iso);
            program_.dispatchLine(cmd, slab.tiles);
        });
}

} // namespace isoscope
