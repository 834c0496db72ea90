#include "image_size_option.h"

#include "core/parameter_check.h"

namespace isoscope::cli {

namespace {

bool isDigits(std::string_view text)
{
    return !text.empty() && text.find_first_not_of("0123456789") == std::string_view::npos;
}

// Both sides of "WxH", each 1 to maxSide. Parsed as decimal integers with
// their range checked, so "4294967297x1" is refused, not wrapped to 1x1.
bool parseSides(std::string_view text, uint32_t maxSide, uint64_t& width, uint64_t& height)
{
    size_t x = text.find_first_of("xX");
    return x != std::string_view::npos && parseUnsignedInteger(text.substr(0, x), maxSide, width) &&
           parseUnsignedInteger(text.substr(x + 1), maxSide, height) && width >= 1 && height >= 1;
}

} // namespace

std::string checkImageSize(const std::string& text, uint32_t maxSide)
{
    std::string range = "each side from 1 to " + std::to_string(maxSide) + " pixels";
    std::string_view view(text);
    size_t x = view.find_first_of("xX");
    if (x == std::string_view::npos || !isDigits(view.substr(0, x)) || !isDigits(view.substr(x + 1)))
        return "'" + text + "' is not WxH: give two whole numbers like 512x512, " + range;
    uint64_t width = 0, height = 0;
    if (!parseSides(view, maxSide, width, height))
        return "'" + text + "' is out of range: " + range;
    return "";
}

CLI::Validator imageSizeValidator(uint32_t maxSide)
{
    return CLI::Validator([maxSide](std::string& text) { return checkImageSize(text, maxSide); }, "WxH");
}

VkExtent2D parseImageSize(const std::string& text)
{
    uint64_t width = 0, height = 0;
    parseSides(text, UINT32_MAX, width, height);
    return {uint32_t(width), uint32_t(height)};
}

} // namespace isoscope::cli
