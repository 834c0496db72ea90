#include "byte_size_option.h"

#include <cctype>
#include <charconv>
#include <cmath>

namespace isoscope::cli {

namespace {

struct Unit {
    const char* name;
    double bytes;
};

constexpr Unit kUnits[] = {
    {"", 1.0},           {"b", 1.0},           {"k", 1024.0},        {"kib", 1024.0},
    {"kb", 1e3},         {"m", 1048576.0},     {"mib", 1048576.0},   {"mb", 1e6},
    {"g", 1073741824.0}, {"gib", 1073741824.0}, {"gb", 1e9},          {"t", 1099511627776.0},
    {"tib", 1099511627776.0}, {"tb", 1e12},
};

} // namespace

std::optional<uint64_t> parseByteSize(const std::string& text, std::string* why)
{
    auto refuse = [&](const std::string& reason) -> std::optional<uint64_t> {
        if (why)
            *why = "'" + text + "' " + reason + "; give bytes with an optional unit, e.g. 2GiB, 512MiB, 1.5GiB, "
                                                "3GB or 1000000";
        return std::nullopt;
    };
    size_t end = 0;
    while (end < text.size() && (std::isdigit(static_cast<unsigned char>(text[end])) || text[end] == '.'))
        ++end;
    if (end == 0)
        return refuse("does not start with a number");
    double value = 0.0;
    auto [next, error] = std::from_chars(text.data(), text.data() + end, value);
    if (error != std::errc() || next != text.data() + end || !std::isfinite(value))
        return refuse("is not a number");
    std::string unit;
    for (char c : text.substr(end))
        unit += char(std::tolower(static_cast<unsigned char>(c)));
    for (const Unit& u : kUnits) {
        if (unit != u.name)
            continue;
        double bytes = std::floor(value * u.bytes);
        if (bytes < 1.0)
            return refuse("is below one byte");
        if (bytes > std::ldexp(1.0, 60))
            return refuse("is more than 1 EiB");
        return uint64_t(bytes);
    }
    return refuse("has an unknown unit '" + text.substr(end) + "'");
}

CLI::Validator byteSizeValidator()
{
    return CLI::Validator(
        [](std::string& text) {
            std::string why;
            return parseByteSize(text, &why) ? std::string() : why;
        },
        "BYTES");
}

} // namespace isoscope::cli
