// One libFuzzer target per volume format, chosen when compiled
// (FUZZ_EXTENSION: ".nrrd", ".nhdr", ".mha", ".mhd", ".vtk", ".nii", ".tif",
// ".dcm"): the input is
// written as a file of that extension, the part after a "@@DATA@@" line as
// `data.bin` beside it (what detached headers name), and read.
#include "core/error.h"
#include "fuzz_support.h"
#include "volume/readers.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    auto [header, payload] = fuzz::splitHeaderAndData(data, size);
    fuzz::writeScratch("data.bin", payload);
    std::filesystem::path path = fuzz::writeScratch(std::string("input") + FUZZ_EXTENSION, header);
    try {
        fuzz::requireValidVolume(isoscope::readVolumeFile(path));
    } catch (const isoscope::Error&) {
        // A refusal, with a message: what a reader should do with bad input.
    }
    return 0;
}
