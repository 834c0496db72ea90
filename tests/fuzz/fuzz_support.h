#pragma once
// What the libFuzzer targets share: the input written as a file (the readers
// take paths), split into a header and a data file where the format keeps
// them apart, and the invariants a volume or mesh that was read must keep.
// A reader may refuse an input (isoscope::Error); anything else it does with
// one (a crash, a leak, a sanitizer report, an uncaught exception such as
// std::bad_alloc, a volume that breaks an invariant) is a finding.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <unistd.h>

#include "mesh/mesh.h"
#include "volume/volume.h"

namespace fuzz {

namespace fs = std::filesystem;

// The folder the inputs are written to: ISOSCOPE_FUZZ_SCRATCH (ctest gives
// each target its own in the build tree, reused by every run), else one per
// process in memory (/dev/shm) for a run by hand. libFuzzer may end the
// process without running atexit handlers, so nothing is removed at exit.
inline const fs::path& scratchFolder()
{
    static const fs::path folder = [] {
        const char* given = std::getenv("ISOSCOPE_FUZZ_SCRATCH");
        fs::path base = fs::exists("/dev/shm") ? fs::path("/dev/shm") : fs::temp_directory_path();
        fs::path path = given && *given ? fs::path(given) : base / ("isoscope-fuzz-" + std::to_string(getpid()));
        fs::create_directories(path);
        return path;
    }();
    return folder;
}

inline fs::path writeScratch(const std::string& name, std::string_view bytes)
{
    fs::path path = scratchFolder() / name;
    std::ofstream file(path, std::ios::binary | std::ios::trunc);
    file.write(bytes.data(), std::streamsize(bytes.size()));
    if (!file)
        std::abort(); // the harness's own failure, not the reader's
    return path;
}

// The input up to a line "@@DATA@@" is the header, the rest the data file
// (which the seeds name `data.bin`); without the marker, all header.
inline std::pair<std::string_view, std::string_view> splitHeaderAndData(const uint8_t* data, size_t size)
{
    std::string_view input(reinterpret_cast<const char*>(data), size);
    constexpr std::string_view marker = "@@DATA@@\n";
    size_t at = input.find(marker);
    if (at == std::string_view::npos)
        return {input, {}};
    return {input.substr(0, at), input.substr(at + marker.size())};
}

[[noreturn]] inline void broken(const char* invariant)
{
    std::fprintf(stderr, "fuzz: a reader returned a volume or mesh that breaks: %s\n", invariant);
    std::abort();
}

// What every reader promises of a volume it returns (volume/readers.h).
inline void requireValidVolume(const isoscope::Volume& volume)
{
    if (volume.dims[0] == 0 || volume.dims[1] == 0 || volume.dims[2] == 0)
        broken("dims are positive");
    if (volume.data.size() != volume.byteSize())
        broken("the data hold dims × type size bytes");
    for (int axis = 0; axis < 3; ++axis) {
        if (!(std::isfinite(volume.spacing[axis]) && volume.spacing[axis] > 0.0))
            broken("spacing is finite and positive");
        if (!std::isfinite(volume.origin[axis]))
            broken("the origin is finite");
    }
}

// What readMesh promises (io/mesh_io.h).
inline void requireValidMesh(const isoscope::Mesh& mesh)
{
    if (mesh.faceSize != 3 && mesh.faceSize != 4)
        broken("faceSize is 3 or 4");
    if (mesh.indices.size() % mesh.faceSize != 0)
        broken("whole faces");
    for (uint32_t index : mesh.indices)
        if (index >= mesh.positions.size())
            broken("every index names a vertex");
    if (!mesh.normals.empty() && mesh.normals.size() != mesh.positions.size())
        broken("normals are absent or one per vertex");
}

} // namespace fuzz
