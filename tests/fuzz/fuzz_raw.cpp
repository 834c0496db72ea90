// libFuzzer target for raw files with the sizes given (--dims, --type,
// --big-endian, --header-bytes): the input's first two bytes choose them
// (each size 1 to 16, any type, either byte order, up to 7 header bytes),
// the rest is the file.
#include "core/error.h"
#include "fuzz_support.h"
#include "volume/readers.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size < 2)
        return 0;
    isoscope::RawOptions options;
    options.dims = std::array<uint32_t, 3>{1u + (data[0] & 15u), 1u + (data[0] >> 4), 1u + (data[1] & 15u)};
    constexpr isoscope::ScalarType types[] = {isoscope::ScalarType::UInt8, isoscope::ScalarType::UInt16,
                                              isoscope::ScalarType::Int16, isoscope::ScalarType::Float32};
    options.type = types[(data[1] >> 4) & 3u];
    options.bigEndian = (data[1] >> 6) & 1u;
    options.headerBytes = (data[1] >> 7) * 3u;
    std::filesystem::path path =
        fuzz::writeScratch("input.raw", std::string_view(reinterpret_cast<const char*>(data) + 2, size - 2));
    try {
        fuzz::requireValidVolume(isoscope::readVolumeFile(path, options));
    } catch (const isoscope::Error&) {
    }
    return 0;
}
