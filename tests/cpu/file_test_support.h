#pragma once
// What the file tests (volumes and meshes) share: a scratch folder in the
// build tree, files written byte for byte, and the message of the Error a
// reader or writer throws.
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "core/error.h"

namespace filetest {

namespace fs = std::filesystem;

// `name` in the scratch subfolder `folder` (created); an earlier file there
// is left, so a test can write a path and read it back.
inline fs::path scratchPath(const std::string& folder, const std::string& name)
{
    fs::path directory = fs::path(ISOSCOPE_TEST_TMP_DIR) / folder;
    fs::create_directories(directory);
    return directory / name;
}

// The same path with whatever an earlier run left there removed.
inline fs::path freshScratchPath(const std::string& folder, const std::string& name)
{
    fs::path path = scratchPath(folder, name);
    fs::remove_all(path);
    return path;
}

inline void writeFile(const fs::path& path, const std::string& text, const std::vector<std::byte>& bytes = {})
{
    std::ofstream file(path, std::ios::binary | std::ios::trunc);
    file.write(text.data(), std::streamsize(text.size()));
    file.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    REQUIRE(file.good());
}

// The message of the isoscope::Error that call throws; fails the test when it
// throws nothing or something else.
inline std::string errorMessage(const std::function<void()>& call)
{
    try {
        call();
    } catch (const isoscope::Error& error) {
        return error.what();
    } catch (const std::exception& other) {
        FAIL("threw a non-isoscope exception: " << other.what());
    }
    FAIL("no isoscope::Error was thrown");
    return {};
}

} // namespace filetest
