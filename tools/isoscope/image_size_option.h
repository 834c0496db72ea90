#pragma once
// A "WxH" size of pixels: the image of `render` and `bench-raycast`, the
// Standard raycast tile of `bench-raycast`. CLI11 names the option in front
// of the message.
#include <string>

#include <volk.h>

namespace isoscope::cli {

// "" when `text` is a valid WxH (each side 1 to 16384), else why not (a CLI11 validator).
std::string checkImageSize(const std::string& text);
// The size of a text checkImageSize accepted.
VkExtent2D parseImageSize(const std::string& text);

} // namespace isoscope::cli
