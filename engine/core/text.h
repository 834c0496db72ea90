#pragma once
// Small text helpers for messages and names.
#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>
#include <vector>

namespace isoscope {

inline std::string lowercase(std::string text)
{
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return text;
}

// "a, b, c" from {"a", "b", "c"}.
inline std::string join(const std::vector<std::string>& items, std::string_view separator)
{
    std::string result;
    for (const std::string& item : items) {
        if (!result.empty())
            result += separator;
        result += item;
    }
    return result;
}

} // namespace isoscope
