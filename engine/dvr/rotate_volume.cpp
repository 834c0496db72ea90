#include "dvr/rotate_volume.h"

#include <string>
#include <vector>

#include "core/context.h"
#include "core/error.h"
#include "core/math_util.h"
#include "volume/gpu_volume.h"

namespace isoscope {

namespace {

constexpr uint32_t kTileY = 8; // slices a workgroup moves at once (the paper's k); 32×32×4 took twice as long (docs/BENCHMARKS.md)

// `Parameters` in shaders/dvr/rotate_volume.glsl.
struct RotatePushConstants {
    uint32_t tiles;
    uint32_t height;
    uint32_t backward;
};

std::vector<PushMember> rotatePushMembers()
{
    return {ISOSCOPE_PUSH_MEMBER(RotatePushConstants, tiles), ISOSCOPE_PUSH_MEMBER(RotatePushConstants, height),
            ISOSCOPE_PUSH_MEMBER(RotatePushConstants, backward)};
}

// The unsigned format of the volume image's texels (its raw view) and the shader that moves them.
VkFormat rawFormat(const GpuVolume& volume)
{
    switch (volume.image().format) {
    case VK_FORMAT_R8_UNORM: return VK_FORMAT_R8_UINT;
    case VK_FORMAT_R16_UNORM:
    case VK_FORMAT_R16_SNORM: return VK_FORMAT_R16_UINT;
    default: return VK_FORMAT_R32_UINT;
    }
}

const char* rotateShader(const GpuVolume& volume)
{
    switch (rawFormat(volume)) {
    case VK_FORMAT_R8_UINT: return "dvr/rotate_volume_r8";
    case VK_FORMAT_R16_UINT: return "dvr/rotate_volume_r16";
    default: return "dvr/rotate_volume_r32";
    }
}

std::string whyNot(const Context& context, const GpuVolume& volume)
{
    std::array<uint32_t, 3> d = volume.imageDims();
    if (!volume.rawStorageView() || d[0] != d[2] || d[0] % kRotationPadding != 0)
        return "the volume was uploaded without padding to square xz slices (GpuVolumeUsage::squareXZMultiple = " +
               std::to_string(kRotationPadding) + ")";
    const DeviceInfo& info = context.info();
    VkFormatProperties properties;
    vkGetPhysicalDeviceFormatProperties(context.physicalDevice(), rawFormat(volume), &properties);
    if (!(properties.optimalTilingFeatures & VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT))
        return info.name + " cannot store the volume's texels as unsigned integers of their size";
    if (kRotationTile * kTileY > info.maxWorkgroupInvocations())
        return info.name + " allows fewer than " + std::to_string(kRotationTile * kTileY) + " invocations a workgroup";
    const uint32_t shared = 2 * kRotationTile * kRotationTile * kTileY * 4; // two tiles of 32-bit texels
    if (shared > info.maxComputeSharedMemorySize)
        return info.name + " has " + std::to_string(info.maxComputeSharedMemorySize) + " bytes of shared memory, " +
               "the turn needs " + std::to_string(shared);
    return "";
}

} // namespace

bool VolumeRotation::possible(const Context& context, const GpuVolume& volume)
{
    return whyNot(context, volume).empty();
}

VolumeRotation::VolumeRotation(Context& context, const GpuVolume& volume) : volume_(volume)
{
    std::string reason = whyNot(context, volume);
    if (!reason.empty())
        fail("cannot turn the volume in place: " + reason);
    program_.emplace(context, loadShader(rotateShader(volume)), SpecValues{{"TILE", kRotationTile}, {"TILE_Y", kTileY}});
    checkPushLayout(program_->name(), program_->pushMembers(), rotatePushMembers());
}

void VolumeRotation::record(VkCommandBuffer cmd, bool forward) const
{
    std::array<uint32_t, 3> d = volume_.imageDims();
    RotatePushConstants constants{d[0] / kRotationTile, d[1], forward ? 0u : 1u};
    program_->bind(cmd, {DescriptorInfo(VK_NULL_HANDLE, volume_.rawStorageView(), VK_IMAGE_LAYOUT_GENERAL)}, &constants,
                   sizeof constants);
    // One workgroup per four-cycle of tiles (the quadrant i, j < m / 2) and slab of slices.
    uint32_t half = constants.tiles / 2;
    program_->dispatch(cmd, half, half, ceilDiv(d[1], kTileY));
}

} // namespace isoscope
