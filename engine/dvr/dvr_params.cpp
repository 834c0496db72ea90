#include "dvr/dvr_params.h"

#include <array>
#include <utility>

namespace isoscope {

namespace {
constexpr std::array<std::pair<DvrMapping, std::string_view>, 5> kNames{{{DvrMapping::Standard, "standard"},
                                                                        {DvrMapping::Shaped, "shaped"},
                                                                        {DvrMapping::Rotated, "rotated"},
                                                                        {DvrMapping::Warp, "warp"},
                                                                        {DvrMapping::Auto, "auto"}}};
}

std::string_view dvrMappingName(DvrMapping mapping)
{
    for (const auto& [m, name] : kNames)
        if (m == mapping)
            return name;
    return "?";
}

std::optional<DvrMapping> parseDvrMapping(std::string_view name)
{
    for (const auto& [m, n] : kNames)
        if (n == name)
            return m;
    return std::nullopt;
}

} // namespace isoscope
