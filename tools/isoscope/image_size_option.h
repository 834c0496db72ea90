#pragma once
// The "WxH" image size that `render` and `bench-raycast` take.
#include <string>

#include <volk.h>

namespace isoscope::cli {

// "" when `text` is a valid WxH (each side 1 to 16384), else why not (a CLI11 validator).
std::string checkImageSize(const std::string& text);
// The size of a text checkImageSize accepted.
VkExtent2D parseImageSize(const std::string& text);

} // namespace isoscope::cli
