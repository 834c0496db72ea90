#pragma once
// A "WxH" size of pixels: the image of `render` and `bench-raycast`, the
// Standard raycast tile of `bench-raycast`. CLI11 names the option in front
// of the message.
#include <cstdint>
#include <string>

#include <CLI/CLI.hpp>
#include <volk.h>

namespace isoscope::cli {

// The largest image side: 16384, what every Vulkan device supports for a 2D image.
constexpr uint32_t kMaxImageSide = 16384;

// "" when `text` is a valid WxH (each side 1 to maxSide, decimal, no
// wrap-around), else why not, with the value and the range.
std::string checkImageSize(const std::string& text, uint32_t maxSide = kMaxImageSide);
// checkImageSize as a CLI11 validator.
CLI::Validator imageSizeValidator(uint32_t maxSide = kMaxImageSide);
// The size of a text checkImageSize accepted.
VkExtent2D parseImageSize(const std::string& text);

} // namespace isoscope::cli
