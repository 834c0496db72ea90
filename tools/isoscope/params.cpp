#include "params.h"

#include "core/parameter_check.h"
#include "core/text.h"

namespace isoscope::cli {

CLI::Validator finiteNumber(double min, double max, const std::string& part)
{
    return CLI::Validator(
        [min, max, part](std::string& text) {
            std::string why = whyNotFiniteInRange(text, min, max);
            return why.empty() || part.empty() ? why : part + " " + why;
        },
                          "NUMBER in [" + formatNumber(min) + ", " + formatNumber(max) + "]");
}

CLI::Validator wholeNumber(uint64_t min, uint64_t max)
{
    return CLI::Validator([min, max](std::string& text) { return whyNotIntegerInRange(text, min, max); },
                          "INT in [" + std::to_string(min) + ", " + std::to_string(max) + "]");
}

CLI::Validator multipleOf(uint64_t step, const std::string& range)
{
    return CLI::Validator(
        [step, range](std::string& text) -> std::string {
            uint64_t value = 0;
            if (parseUnsignedInteger(text, UINT64_MAX, value) && value % step == 0)
                return "";
            return "'" + text + "' is not a multiple of " + std::to_string(step) + " " + range;
        },
        "");
}

CLI::Validator positiveFraction()
{
    return CLI::Validator(
        [](std::string& text) -> std::string {
            // [0, 1]'s check, worded for (0, 1]; 0 passes it and is refused here.
            std::string why = whyNotFiniteInRange(text, 0.0, 1.0);
            double value = 0.0;
            if (why.empty() && parseFiniteNumber(text, value) && value == 0.0)
                return "'" + text + "' keeps no triangles: give a number above 0, up to 1";
            size_t range = why.find("from 0 to 1");
            return range == std::string::npos ? why : why.replace(range, 11, "above 0, up to 1");
        },
        "NUMBER in (0, 1]");
}

CLI::Validator dicomUid()
{
    constexpr size_t kMaxUidLength = 64;
    return CLI::Validator(
        [](std::string& text) -> std::string {
            bool valid = !text.empty() && text.size() <= kMaxUidLength &&
                         text.find_first_not_of("0123456789.") == std::string::npos;
            if (valid)
                return "";
            return "'" + printable(text, 40) + "' is not a DICOM UID (1 to 64 digits and dots, like "
                   "1.2.840.113619.2.55): give the Series Instance UID that the error listing the series names";
        },
        "UID");
}

CLI::Validator blockSize()
{
    constexpr uint64_t kMaxBlockSide = 1024;
    return CLI::Validator(
        [](std::string& text) -> std::string {
            std::string_view rest(text);
            for (int axis = 0; axis < 3; ++axis) {
                size_t x = axis < 2 ? rest.find_first_of("xX") : rest.size();
                uint64_t side = 0;
                if (x == std::string_view::npos || !parseUnsignedInteger(rest.substr(0, x), kMaxBlockSide, side) ||
                    side == 0)
                    return "'" + text + "' is not three sizes XxYxZ from 1 to " + std::to_string(kMaxBlockSide) +
                           ": give one like 8x4x4";
                rest = rest.substr(std::min(x + 1, rest.size()));
            }
            return "";
        },
        "XxYxZ");
}

void usageError(const std::string& option, const std::string& message)
{
    throw CLI::ValidationError(option, message);
}

} // namespace isoscope::cli
