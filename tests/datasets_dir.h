#pragma once
// Where tests find ../shared/datasets: $ISOSCOPE_DATASETS when set (a copy
// carried to another machine), else the folder beside the checkout that the
// build recorded. Tests skip, with a message, when it does not exist.
#include <cstdlib>
#include <filesystem>

namespace isoscope::test {

inline std::filesystem::path datasetsDir()
{
    const char* override = std::getenv("ISOSCOPE_DATASETS");
    return override && *override ? std::filesystem::path(override) : std::filesystem::path(ISOSCOPE_DATASETS_DIR);
}

} // namespace isoscope::test
