#pragma once
// Image barriers between two states, in the isoscope::api::ImageState terms
// the host also hands to Renderer::record, so both sides name a state once.
#include <initializer_list>

#include <vulkan/vulkan_core.h>

#include <isoscope/renderer.h>

namespace samplehost {

constexpr VkPipelineStageFlags2 kFragmentTests =
    VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT;
constexpr VkPipelineStageFlags2 kCopyOut = VK_PIPELINE_STAGE_2_COPY_BIT | VK_PIPELINE_STAGE_2_BLIT_BIT;
// Where a frame leaves its targets: the colour blitted or copied out, the depth tested.
constexpr isoscope::api::ImageState kColorCopiedOut{VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, kCopyOut,
                                                    VK_ACCESS_2_TRANSFER_READ_BIT};
constexpr isoscope::api::ImageState kDepthTested{VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL, kFragmentTests,
                                                 VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT |
                                                     VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT};

VkImageMemoryBarrier2 imageBarrier(VkImage image, VkImageAspectFlags aspect, isoscope::api::ImageState from,
                                   isoscope::api::ImageState to);
void pipelineBarrier(VkCommandBuffer cmd, std::initializer_list<VkImageMemoryBarrier2> barriers);

} // namespace samplehost
