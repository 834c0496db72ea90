#include "graph/graph_desc.h"

#include "core/error.h"

namespace isoscope {

namespace {

const char* passKindName(PassKind kind)
{
    switch (kind) {
    case PassKind::Compute: return "compute";
    case PassKind::Raster: return "raster";
    case PassKind::Transfer: return "transfer";
    }
    return "?";
}

// The shader stages a pass of `kind` runs; transfer passes run none.
VkPipelineStageFlags2 shaderStages(PassKind kind)
{
    switch (kind) {
    case PassKind::Compute: return VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;
    case PassKind::Raster: return VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT;
    case PassKind::Transfer: return VK_PIPELINE_STAGE_2_NONE;
    }
    return VK_PIPELINE_STAGE_2_NONE;
}

} // namespace

bool isImageUse(Use use)
{
    switch (use) {
    case Use::Sampled:
    case Use::StorageImageRead:
    case Use::StorageImageWrite:
    case Use::ColorAttachment:
    case Use::DepthAttachment: return true;
    default: return false;
    }
}

bool isDepthFormat(VkFormat format)
{
    return format == VK_FORMAT_D32_SFLOAT || format == VK_FORMAT_D16_UNORM || format == VK_FORMAT_X8_D24_UNORM_PACK32;
}

ResourceState useState(Use use, PassKind kind)
{
    const bool shader = kind != PassKind::Transfer;
    const bool raster = kind == PassKind::Raster;
    auto need = [&](bool ok) {
        if (!ok)
            fail(std::string("a ") + passKindName(kind) + " pass cannot use a resource this way (use " +
                 std::to_string(int(use)) + "): engine bug, declare the pass with the right kind");
    };
    const VkPipelineStageFlags2 stages = shaderStages(kind);
    switch (use) {
    case Use::StorageRead: need(shader); return {stages, VK_ACCESS_2_SHADER_STORAGE_READ_BIT};
    case Use::StorageWrite:
        need(shader);
        return {stages, VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT};
    case Use::UniformRead: need(shader); return {stages, VK_ACCESS_2_UNIFORM_READ_BIT};
    case Use::IndirectArgs:
        need(shader);
        return {VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT, VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT};
    case Use::IndexBuffer: need(raster); return {VK_PIPELINE_STAGE_2_INDEX_INPUT_BIT, VK_ACCESS_2_INDEX_READ_BIT};
    case Use::VertexBuffer:
        need(raster);
        return {VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT, VK_ACCESS_2_VERTEX_ATTRIBUTE_READ_BIT};
    case Use::Sampled:
        need(shader);
        return {stages, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
    case Use::StorageImageRead:
        need(shader);
        return {stages, VK_ACCESS_2_SHADER_STORAGE_READ_BIT, VK_IMAGE_LAYOUT_GENERAL};
    case Use::StorageImageWrite:
        need(shader);
        return {stages, VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                VK_IMAGE_LAYOUT_GENERAL};
    case Use::ColorAttachment:
        need(raster);
        return {VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
                VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
    case Use::DepthAttachment:
        need(raster);
        return {VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT,
                VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT | VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
                VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL};
    // A transfer use's layout is for images; compileGraph ignores it for buffers.
    case Use::TransferSrc:
        return {VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_READ_BIT,
                VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL};
    case Use::TransferDst:
        return {VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL};
    }
    fail("unknown resource use (engine bug)");
}

VkBufferUsageFlags bufferUsageFor(Use use)
{
    switch (use) {
    case Use::StorageRead:
    case Use::StorageWrite: return VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    case Use::UniformRead: return VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT;
    case Use::IndirectArgs: return VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT;
    case Use::IndexBuffer: return VK_BUFFER_USAGE_INDEX_BUFFER_BIT;
    case Use::VertexBuffer: return VK_BUFFER_USAGE_VERTEX_BUFFER_BIT;
    case Use::TransferSrc: return VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
    case Use::TransferDst: return VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    default: return 0;
    }
}

VkImageUsageFlags imageUsageFor(Use use)
{
    switch (use) {
    case Use::Sampled: return VK_IMAGE_USAGE_SAMPLED_BIT;
    case Use::StorageImageRead:
    case Use::StorageImageWrite: return VK_IMAGE_USAGE_STORAGE_BIT;
    case Use::ColorAttachment: return VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
    case Use::DepthAttachment: return VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT;
    case Use::TransferSrc: return VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
    case Use::TransferDst: return VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    default: return 0;
    }
}

bool isWriteUse(Use use)
{
    switch (use) {
    case Use::StorageWrite:
    case Use::StorageImageWrite:
    case Use::ColorAttachment:
    case Use::DepthAttachment:
    case Use::TransferDst: return true;
    default: return false;
    }
}

const char* useName(Use use)
{
    switch (use) {
    case Use::StorageRead: return "StorageRead";
    case Use::StorageWrite: return "StorageWrite";
    case Use::UniformRead: return "UniformRead";
    case Use::IndirectArgs: return "IndirectArgs";
    case Use::IndexBuffer: return "IndexBuffer";
    case Use::VertexBuffer: return "VertexBuffer";
    case Use::Sampled: return "Sampled";
    case Use::StorageImageRead: return "StorageImageRead";
    case Use::StorageImageWrite: return "StorageImageWrite";
    case Use::ColorAttachment: return "ColorAttachment";
    case Use::DepthAttachment: return "DepthAttachment";
    case Use::TransferSrc: return "TransferSrc";
    case Use::TransferDst: return "TransferDst";
    }
    return "?";
}

} // namespace isoscope
