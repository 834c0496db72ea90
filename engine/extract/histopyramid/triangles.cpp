#include "extract/histopyramid/triangles.h"

#include "graph/render_graph.h"

namespace isoscope {

HistoPyramidTrianglesPass::HistoPyramidTrianglesPass(Context& context, bool weld, const SpecValues& values)
    : weld_(weld),
      program_(context, loadShader(weld ? "extract/histopyramid/triangles" : "extract/histopyramid/triangle_soup"),
               values)
{
    checkPushLayout(program_.name(), program_.pushMembers(), histoPyramidPushMembers());
}

void HistoPyramidTrianglesPass::add(RenderGraph& graph, const std::string& name, const HistoPyramidResources& r,
                     const HistoPyramidPush& push, const float& iso) const
{
    // Welded, the pass writes indices only (triangles.comp); as a soup its
    // own vertices too (triangle_soup.comp).
    std::vector<ResourceUse> uses = {{r.volume, Use::StorageRead, 0}, {r.levels, Use::StorageRead, 1},
                                     {r.pyramid, Use::StorageRead, 2}, {r.dispatch, Use::IndirectArgs}};
    std::vector<ResourceId> bound = {r.volume, r.levels, r.pyramid};
    if (!weld_) {
        uses.push_back({r.vertices, Use::StorageWrite, int32_t(bound.size())});
        bound.push_back(r.vertices);
    }
    for (auto [resource, use] : {std::pair{r.indices, Use::StorageWrite}, std::pair{r.counters, Use::StorageRead},
                                 std::pair{r.dispatch, Use::StorageRead}, std::pair{r.caseTable, Use::StorageRead}}) {
        uses.push_back({resource, use, int32_t(bound.size())});
        bound.push_back(resource);
    }
    graph.addComputePass(name, program_, std::move(uses),
                         [this, bound, r, &push, &iso](VkCommandBuffer cmd, const RenderGraph& g) {
                             HistoPyramidPush constants = push;
                             constants.iso = iso;
                             std::vector<DescriptorInfo> descriptors;
                             for (ResourceId id : bound)
                                 descriptors.push_back(g.storage(id));
                             program_.bind(cmd, std::span<const DescriptorInfo>(descriptors), &constants, sizeof constants);
                             vkCmdDispatchIndirect(cmd, g.buffer(r.dispatch), kHistoPyramidTriangleDispatchOffset);
                         });
}

} // namespace isoscope
