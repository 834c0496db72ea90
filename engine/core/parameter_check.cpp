#include "core/parameter_check.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <system_error>

#include "core/error.h"
#include "core/text.h"

namespace isoscope {

namespace {

// Text quoted in a message: a bad value can be anything the user typed.
std::string quoted(std::string_view text)
{
    return "'" + printable(text, 40) + "'";
}

std::string rangeText(double min, double max)
{
    return "from " + formatNumber(min) + " to " + formatNumber(max);
}

} // namespace

bool parseFiniteNumber(std::string_view text, double& value)
{
    double parsed = 0.0;
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), parsed);
    // from_chars reads "nan" and "inf" as numbers, and reports 1e400 (and
    // 1e-400) as out of range: the first two are not finite, the third not a
    // double; an underflow to zero is refused too, as a value the user did not mean.
    if (text.empty() || error != std::errc() || end != text.data() + text.size() || !std::isfinite(parsed))
        return false;
    value = parsed;
    return true;
}

bool parseUnsignedInteger(std::string_view text, uint64_t max, uint64_t& value)
{
    if (text.empty() || text.find_first_not_of("0123456789") != std::string_view::npos)
        return false;
    uint64_t parsed = 0;
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), parsed, 10);
    if (error != std::errc() || end != text.data() + text.size() || parsed > max)
        return false;
    value = parsed;
    return true;
}

std::string formatNumber(double value)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.10g", value);
    return text;
}

std::string whyNotFiniteInRange(std::string_view text, double min, double max)
{
    double value = 0.0;
    if (!parseFiniteNumber(text, value))
        return quoted(text) + " is not a finite number: give one " + rangeText(min, max);
    if (!(value >= min && value <= max))
        return quoted(text) + " is out of range: give a number " + rangeText(min, max);
    return "";
}

std::string whyNotIntegerInRange(std::string_view text, uint64_t min, uint64_t max)
{
    std::string range = "from " + std::to_string(min) + " to " + std::to_string(max);
    uint64_t value = 0;
    if (text.empty() || text.find_first_not_of("0123456789") != std::string_view::npos)
        return quoted(text) + " is not a whole number: give one " + range;
    if (!parseUnsignedInteger(text, max, value) || value < min)
        return quoted(text) + " is out of range: give a whole number " + range;
    return "";
}

void checkFinite(std::string_view name, double value)
{
    if (!std::isfinite(value))
        fail(std::string(name) + " is " + formatNumber(value) + ": give a finite number");
}

void checkParameter(std::string_view name, double value, double min, double max)
{
    if (!std::isfinite(value))
        fail(std::string(name) + " is " + formatNumber(value) + ": give a finite number " + rangeText(min, max));
    if (!(value >= min && value <= max))
        fail(std::string(name) + " is " + formatNumber(value) + ": out of range, give a number " + rangeText(min, max));
}

} // namespace isoscope
