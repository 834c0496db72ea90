#include "extract/histopyramid/base.h"

#include "graph/render_graph.h"

namespace isoscope {

namespace {

SpecValues baseSpecValues(const Volume& volume)
{
    // Every line of 16 uint8 samples starts on 16 bytes where the x size is a multiple of 16.
    bool byteLines = volume.type == ScalarType::UInt8 && volume.dims[0] % 16 == 0;
    return {{"SCALAR_TYPE", uint32_t(volume.type)}, {"BYTE_LINES", byteLines ? 1u : 0u}};
}

} // namespace

HistoPyramidBasePass::HistoPyramidBasePass(Context& context, const Volume& volume)
    : HistoPyramidPass(context, "extract/histopyramid/base", baseSpecValues(volume))
{
}

void HistoPyramidBasePass::add(RenderGraph& graph, const std::string& name, const HistoPyramidResources& r,
                     const HistoPyramidPush& push, const float& iso, uint32_t column, uint64_t groups) const
{
    std::vector<ResourceUse> uses = {{r.volume, Use::StorageRead, 0}, {r.levels, Use::StorageRead, 1}, {r.pyramid, Use::StorageWrite, 2},
                                     {r.caseTable, Use::StorageRead, 3},
                                     // The samples again as 16-byte and 8-byte vectors (line_inside_bits.glsl).
                                     {r.volume, Use::StorageRead, 4}, {r.volume, Use::StorageRead, 5},
                                     // The pyramid again as 16-byte vectors: a level-2 node's level-1 entries at once.
                                     {r.pyramid, Use::StorageWrite, 6}};
    graph.addComputePass(name, program_, uses, [this, uses, &push, &iso, column, groups](VkCommandBuffer cmd, const RenderGraph& g) {
                             HistoPyramidPush constants = push;
                             constants.level = column;
                             bind(cmd, g, uses, constants, iso);
                             program_.dispatchLine(cmd, groups);
                         });
}

} // namespace isoscope
