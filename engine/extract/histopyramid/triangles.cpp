#include "extract/histopyramid/triangles.h"

#include "graph/render_graph.h"

namespace isoscope {

HistoPyramidTrianglesPass::HistoPyramidTrianglesPass(Context& context, bool weld, const SpecValues& values)
    : HistoPyramidPass(context, weld ? "extract/histopyramid/triangles" : "extract/histopyramid/triangle_soup", values),
      weld_(weld)
{
}

void HistoPyramidTrianglesPass::add(RenderGraph& graph, const std::string& name, const HistoPyramidResources& r,
                                    const HistoPyramidPush& push, const float& iso) const
{
    // Welded, the pass writes indices only (triangles.comp); as a soup its
    // own vertices too (triangle_soup.comp), which shift the later bindings.
    std::vector<ResourceUse> uses = {{r.volume, Use::StorageRead, 0}, {r.levels, Use::StorageRead, 1},
                                     {r.pyramid, Use::StorageRead, 2}, {r.dispatch, Use::IndirectArgs}};
    int32_t next = 3;
    if (!weld_)
        uses.push_back({r.vertices, Use::StorageWrite, next++});
    for (auto [resource, use] : {std::pair{r.indices, Use::StorageWrite}, std::pair{r.counters, Use::StorageRead},
                                 std::pair{r.dispatch, Use::StorageRead}, std::pair{r.caseTable, Use::StorageRead},
                                 std::pair{r.pyramid, Use::StorageRead}}) // the pyramid again as vectors
        uses.push_back({resource, use, next++});
    graph.addComputePass(name, program_, uses, [this, uses, r, &push, &iso](VkCommandBuffer cmd, const RenderGraph& g) {
        bind(cmd, g, uses, push, iso);
        vkCmdDispatchIndirect(cmd, g.buffer(r.dispatch), kHistoPyramidTriangleDispatchOffset);
    });
}

} // namespace isoscope
