#include "extract/dual/clear_table.h"

#include "graph/render_graph.h"

namespace isoscope {

void addClearTablePass(RenderGraph& graph, const std::string& name, const DualResources& r,
                       std::function<void()> recorded)
{
    graph.addPass(name, PassKind::Transfer,
                  {{r.tableKeys, Use::TransferDst},
                   {r.tableQuads, Use::TransferDst},
                   {r.counters, Use::TransferDst},
                   {r.blockState, Use::TransferDst}},
                  [r, recorded](VkCommandBuffer cmd, const RenderGraph& g) {
                      if (recorded)
                          recorded();
                      vkCmdFillBuffer(cmd, g.buffer(r.tableKeys), 0, VK_WHOLE_SIZE, 0xFFFFFFFFu);
                      vkCmdFillBuffer(cmd, g.buffer(r.tableQuads), 0, VK_WHOLE_SIZE, 0xFFFFFFFFu);
                      vkCmdFillBuffer(cmd, g.buffer(r.counters), 0, VK_WHOLE_SIZE, 0);
                      vkCmdFillBuffer(cmd, g.buffer(r.blockState), 0, VK_WHOLE_SIZE, 0);
                  });
}

void addClearHalfedgesPass(RenderGraph& graph, const std::string& name, const DualResources& r)
{
    graph.addPass(name, PassKind::Transfer,
                  {{r.outgoingCounts, Use::TransferDst}, {r.vertexHalfedges, Use::TransferDst}},
                  [r](VkCommandBuffer cmd, const RenderGraph& g) {
                      vkCmdFillBuffer(cmd, g.buffer(r.outgoingCounts), 0, VK_WHOLE_SIZE, 0);
                      vkCmdFillBuffer(cmd, g.buffer(r.vertexHalfedges), 0, VK_WHOLE_SIZE, 0xFFFFFFFFu);
                  });
}

} // namespace isoscope
