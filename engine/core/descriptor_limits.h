#pragma once
// Whether a program's descriptors fit the device's per-stage limits.
//
// Vulkan guarantees only small per-stage counts (4 storage buffers, 4
// storage images, 12 uniform buffers, 16 sampled images and samplers, 128
// resources, 32 push descriptors); a pipeline layout above them is invalid
// usage, which a driver need not report. Programs check before they create
// their layouts, so such a device gets a message instead.
#include <cstdint>
#include <span>
#include <string>

#include <volk.h>

#include "core/device_info.h"

namespace isoscope {

// `types` holds one descriptor per binding of a push-descriptor set layout,
// every binding visible to each stage checked (as the engine's layouts are);
// `program` names it for the message ("shader extract/scan/list").
// colorAttachments count against a fragment stage's maxPerStageResources.
// Returns "" when everything fits, else one message for the user naming each
// limit exceeded, with the counts, and what to do.
std::string descriptorLimitsProblem(const std::string& program, std::span<const VkDescriptorType> types,
                                    const DeviceInfo& info, uint32_t colorAttachments = 0);

} // namespace isoscope
