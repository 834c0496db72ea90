#include "image_size_option.h"

#include <cstdio>

namespace isoscope::cli {

std::string checkImageSize(const std::string& text)
{
    unsigned width = 0, height = 0;
    char x = 0, extra = 0;
    if (std::sscanf(text.c_str(), "%u%c%u%c", &width, &x, &height, &extra) != 3 || (x != 'x' && x != 'X'))
        return "must be WxH, e.g. 512x512, not '" + text + "'";
    if (width < 1 || height < 1 || width > 16384 || height > 16384)
        return text + " is out of range: each side from 1 to 16384 pixels";
    return "";
}

VkExtent2D parseImageSize(const std::string& text)
{
    unsigned width = 0, height = 0;
    char x = 0;
    std::sscanf(text.c_str(), "%u%c%u", &width, &x, &height);
    return {width, height};
}

} // namespace isoscope::cli
