// libFuzzer target for the mesh reader, one per format (FUZZ_EXTENSION:
// ".ply" or ".obj"): the input is written as a file of that extension and read.
#include "core/error.h"
#include "fuzz_support.h"
#include "io/mesh_io.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    std::filesystem::path path = fuzz::writeScratch(std::string("input") + FUZZ_EXTENSION,
                                                    std::string_view(reinterpret_cast<const char*>(data), size));
    try {
        fuzz::requireValidMesh(isoscope::readMesh(path));
    } catch (const isoscope::Error&) {
    }
    return 0;
}
