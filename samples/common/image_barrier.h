#pragma once
// Image barriers between two states, in the isoscope::api::ImageState terms
// the host also hands to Renderer::record, so both sides name a state once.
#include <initializer_list>

#include <vulkan/vulkan_core.h>

#include <isoscope/renderer.h>

namespace samplehost {

VkImageMemoryBarrier2 imageBarrier(VkImage image, VkImageAspectFlags aspect, isoscope::api::ImageState from,
                                   isoscope::api::ImageState to);
void pipelineBarrier(VkCommandBuffer cmd, std::initializer_list<VkImageMemoryBarrier2> barriers);

} // namespace samplehost
