#include "extract/scan/count.h"

#include "compute/block_sum_scan.h"
#include "graph/render_graph.h"

namespace isoscope {

void ScanCountPass::add(RenderGraph& graph, const ScanResources& r, const BlockSumScan& sums, const ScanSlab& slab,
                        const float& iso) const
{
    graph.addComputePass(
        "count", program_,
        {{r.volume, Use::StorageRead, 0}, {r.caseTable, Use::StorageRead, 1}, {r.blockSums, Use::StorageWrite, 2},
         {r.volume, Use::StorageRead, 3}, {r.volume, Use::StorageRead, 4}, {r.spanBits, Use::StorageWrite, 5}},
        [this, r, &sums, &slab, &iso](VkCommandBuffer cmd, const RenderGraph& g) {
            // The volume's planes three times: as words, 16-byte and 8-byte vectors (classify_spans.glsl).
            DescriptorInfo planes = slabPlanes(g, r.volume, slab);
            bindSlab(cmd,
                     {planes, g.storage(r.caseTable), sums.level0(g, r.blockSums), planes, planes,
                      g.storage(r.spanBits)},
                     slab, iso);
            program_.dispatchLine(cmd, slab.countGroups);
        });
}

} // namespace isoscope
