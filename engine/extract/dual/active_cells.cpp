#include "extract/dual/active_cells.h"

#include <algorithm>
#include <cstddef>

#include "core/context.h"
#include "core/error.h"
#include "extract/block/block_state.h"
#include "graph/render_graph.h"

namespace isoscope {

namespace {

// An invocation per block row (BLOCK_Y × BLOCK_Z of them), whole blocks a
// workgroup of at least 64 invocations and at least a subgroup.
uint32_t groupSizeFor(Context& context, std::array<uint32_t, 3> block)
{
    if (block[0] == 0 || block[0] > 31 || block[1] == 0 || block[2] == 0)
        fail("the dual method's value-range block must be 1..31 cells wide (engine bug)");
    uint32_t rows = block[1] * block[2];
    uint32_t size = std::max<uint32_t>(64, context.info().subgroupSize);
    size = (size + rows - 1) / rows * rows;
    if (size > context.info().maxWorkgroupInvocations())
        fail("the dual method's classification needs workgroups of " + std::to_string(size) +
             " invocations; this device allows " + std::to_string(context.info().maxWorkgroupInvocations()));
    return size;
}

} // namespace

DualActiveCellsPass::DualActiveCellsPass(Context& context, std::array<uint32_t, 3> block)
    : DualPass(context, "extract/dual/active_cells",
               {{"WORKGROUP_SIZE", groupSizeFor(context, block)},
                {"BLOCK_X", block[0]},
                {"BLOCK_Y", block[1]},
                {"BLOCK_Z", block[2]}}),
      blocksPerGroup_(groupSizeFor(context, block) / (block[1] * block[2]))
{
}

void DualActiveCellsPass::add(RenderGraph& graph, const std::string& name, const DualResources& r,
                              const DualPush& push, const float& iso) const
{
    std::vector<ResourceUse> uses = {{r.volume, Use::StorageRead, 0},      {r.activeBlocks, Use::StorageRead, 1},
                                     {r.blockState, Use::StorageRead, 2},  {r.counters, Use::StorageWrite, 3},
                                     {r.activeCells, Use::StorageWrite, 4}, {r.blockState, Use::IndirectArgs}};
    graph.addComputePass(name, program_, uses, [this, uses, &push, &iso, r](VkCommandBuffer cmd, const RenderGraph& g) {
        bind(cmd, g, uses, push, iso);
        vkCmdDispatchIndirect(cmd, g.buffer(r.blockState), offsetof(BlockState, countDispatch));
    });
}

} // namespace isoscope
