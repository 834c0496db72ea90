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

// Text safe to quote in a one-line message (a binary file read as text, a
// value the user typed): at most `most` characters, control and non-ASCII
// bytes shown as '?', "..." when cut.
inline std::string printable(std::string_view text, size_t most = 60)
{
    std::string shown(text.substr(0, most));
    for (char& c : shown)
        if (static_cast<unsigned char>(c) < 32 || static_cast<unsigned char>(c) > 126)
            c = '?';
    return text.size() > most ? shown + "..." : shown;
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
