#include "extract/stream/slab_overlap_copy.h"

#include <string>
#include <vector>

#include "core/context.h"
#include "core/error.h"
#include "core/math_util.h"
#include "core/shader.h"
#include "graph/render_graph.h"

namespace isoscope {

namespace {

// The previous slab's volume: read by that slab's extraction (earlier on this
// queue); its upload's writes were made available by their release.
const ResourceState kReadBefore{VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
                                VK_IMAGE_LAYOUT_GENERAL};
// Left for the extraction's imports (importVolumeImage / importVolumeBuffer): GENERAL, the copy visible to all.
const ResourceState kForExtraction{VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT,
                                   VK_IMAGE_LAYOUT_GENERAL};

void checkPlanes(const GpuVolume& from, uint32_t fromPlane, const GpuVolume& to, uint32_t planes)
{
    if (from.dims()[0] != to.dims()[0] || from.dims()[1] != to.dims()[1] || fromPlane + planes > from.dims()[2] ||
        planes > to.dims()[2] || planes == 0)
        fail("a slab overlap copy of " + std::to_string(planes) + " planes from plane " + std::to_string(fromPlane) +
             " outside the slab volumes (an engine bug)");
}

constexpr uint32_t kGroupX = 64, kGroupY = 4; // a workgroup's texels: 64 of a row, 4 rows

// `Parameters` in shaders/extract/stream/slab_overlap_copy.glsl.
struct CopyPushConstants {
    uint32_t width;
    uint32_t height;
    uint32_t fromPlane;
};

std::vector<PushMember> copyPushMembers()
{
    return {ISOSCOPE_PUSH_MEMBER(CopyPushConstants, width), ISOSCOPE_PUSH_MEMBER(CopyPushConstants, height),
            ISOSCOPE_PUSH_MEMBER(CopyPushConstants, fromPlane)};
}

// The shader for the texel size of the image's format (its raw view's).
const char* copyShader(VkFormat format)
{
    switch (format) {
    case VK_FORMAT_R8_UNORM: return "extract/stream/slab_overlap_copy_r8";
    case VK_FORMAT_R16_UNORM:
    case VK_FORMAT_R16_SNORM: return "extract/stream/slab_overlap_copy_r16";
    default: return "extract/stream/slab_overlap_copy_r32";
    }
}

} // namespace

std::shared_ptr<const ComputeProgram> makeSlabOverlapCopyProgram(Context& context, const GpuVolume& like)
{
    if (!like.rawStorageView() || kGroupX * kGroupY > context.info().maxWorkgroupInvocations())
        return nullptr;
    auto program = std::make_shared<ComputeProgram>(context, loadShader(copyShader(like.image().format)),
                                                    SpecValues{{"GROUP_X", kGroupX}, {"GROUP_Y", kGroupY}});
    checkPushLayout(program->name(), program->pushMembers(), copyPushMembers());
    return program;
}

void addSlabOverlapCopyPass(RenderGraph& graph, const GpuVolume& from, uint32_t fromPlane, const GpuVolume& to,
                            uint32_t planes, const ResourceState& arriving, std::shared_ptr<const ComputeProgram> program)
{
    checkPlanes(from, fromPlane, to, planes);
    const Image& source = from.image();
    const Image& target = to.image();
    ResourceId sourceId =
        graph.importImage("previous slab image", {source.image, source.view, source.format,
                                                  {source.extent.width, source.extent.height}},
                          kReadBefore, kForExtraction);
    ResourceId targetId = graph.importImage(
        "slab image", {target.image, target.view, target.format, {target.extent.width, target.extent.height}},
        arriving, kForExtraction);
    if (program && from.rawStorageView() && to.rawStorageView()) {
        VkImageView source = from.rawStorageView(), target = to.rawStorageView();
        CopyPushConstants constants{to.image().extent.width, to.image().extent.height, fromPlane};
        graph.addPass("slab overlap copy", PassKind::Compute,
                      {{sourceId, Use::StorageImageRead}, {targetId, Use::StorageImageWrite}},
                      [=](VkCommandBuffer cmd, const RenderGraph&) {
                          program->bind(cmd,
                                        {DescriptorInfo(VK_NULL_HANDLE, source, VK_IMAGE_LAYOUT_GENERAL),
                                         DescriptorInfo(VK_NULL_HANDLE, target, VK_IMAGE_LAYOUT_GENERAL)},
                                        &constants, sizeof constants);
                          program->dispatch(cmd, uint32_t(ceilDiv(constants.width, kGroupX)),
                                            uint32_t(ceilDiv(constants.height, kGroupY)),
                                            planes);
                      });
        return;
    }
    VkImageCopy region{};
    region.srcSubresource = region.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.srcOffset = {0, 0, int32_t(fromPlane)};
    region.extent = {target.extent.width, target.extent.height, planes};
    graph.addPass("slab overlap copy", PassKind::Transfer, {{sourceId, Use::TransferSrc}, {targetId, Use::TransferDst}},
                  [=](VkCommandBuffer cmd, const RenderGraph& g) {
                      vkCmdCopyImage(cmd, g.image(sourceId).image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                                     g.image(targetId).image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
                  });
}

void addSlabBufferOverlapCopyPass(RenderGraph& graph, const GpuVolume& from, uint32_t fromPlane, const GpuVolume& to,
                                  uint32_t planes, const ResourceState& arriving)
{
    checkPlanes(from, fromPlane, to, planes);
    if (!from.buffer() || !to.buffer())
        fail("a slab overlap copy between volumes without buffers (an engine bug)");
    uint64_t planeBytes = uint64_t(to.dims()[0]) * to.dims()[1] * scalarSize(to.type());
    ResourceId sourceId = graph.importBuffer("previous slab samples", from.buffer().buffer, kReadBefore, kForExtraction);
    ResourceId targetId = graph.importBuffer("slab samples", to.buffer().buffer, arriving, kForExtraction);
    VkBufferCopy region{fromPlane * planeBytes, 0, planes * planeBytes};
    graph.addPass("slab overlap copy", PassKind::Transfer, {{sourceId, Use::TransferSrc}, {targetId, Use::TransferDst}},
                  [=](VkCommandBuffer cmd, const RenderGraph& g) {
                      vkCmdCopyBuffer(cmd, g.buffer(sourceId), g.buffer(targetId), 1, &region);
                  });
}

} // namespace isoscope
