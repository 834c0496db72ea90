#pragma once
// Helpers for the volume tests: small volumes with known samples, encoders
// that write them as other tools would (so the readers are checked against
// the formats, not against our own writer); the scratch folder and error
// capture of file_test_support.h.
#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <zlib.h>

#include "core/error.h"
#include "file_test_support.h"
#include "volume/readers.h"
#include "volume/volume.h"

namespace volumetest {

using isoscope::ScalarType;
using isoscope::Volume;
namespace fs = std::filesystem;

inline const ScalarType allTypes[] = {ScalarType::UInt8, ScalarType::UInt16, ScalarType::Int16, ScalarType::Float32};

using filetest::errorMessage;
using filetest::writeFile;

// A fresh file path in the build tree's scratch folder.
inline fs::path tmpPath(const std::string& name)
{
    return filetest::freshScratchPath("volume", name);
}

// Writes `name` in the scratch folder (text, then bytes); returns its path.
inline fs::path writeTestFile(const std::string& name, const std::string& text,
                              const std::vector<std::byte>& bytes = {})
{
    fs::path path = tmpPath(name);
    writeFile(path, text, bytes);
    return path;
}

// A detached header and its data file, as NRRD (.nhdr) and MetaImage (.mhd)
// store them: the payload alone in `dataName`, and the header, ending in
// `dataField` and that name, in `headerName`. Returns the header's path.
inline fs::path writeDetached(const std::string& headerName, const std::string& header, const std::string& dataField,
                              const std::string& dataName, const std::vector<std::byte>& payload)
{
    writeTestFile(dataName, "", payload);
    return writeTestFile(headerName, header + dataField + dataName + "\n");
}

// 5×4×3 samples that use each type's range (high bytes set, negative values,
// fractions), so a swapped byte order or a wrong type cannot go unnoticed.
inline Volume makeTestVolume(ScalarType type, std::array<uint32_t, 3> dims = {5, 4, 3})
{
    Volume volume;
    volume.dims = dims;
    volume.type = type;
    volume.spacing = {0.5, 1.25, 2.0};
    volume.origin = {-3.0, 0.125, 10.0};
    volume.data.resize(volume.byteSize());
    for (uint64_t i = 0; i < volume.sampleCount(); ++i) {
        std::byte* out = volume.data.data() + i * isoscope::scalarSize(type);
        if (type == ScalarType::UInt8) {
            uint8_t v = uint8_t((i * 37 + 3) % 256);
            std::memcpy(out, &v, 1);
        } else if (type == ScalarType::UInt16) {
            uint16_t v = uint16_t((i * 1031 + 258) % 65536);
            std::memcpy(out, &v, 2);
        } else if (type == ScalarType::Int16) {
            int16_t v = int16_t(int64_t(i * 1031 % 65536) - 32768);
            std::memcpy(out, &v, 2);
        } else {
            float v = float(i) * 0.37f - 5.0f;
            std::memcpy(out, &v, 4);
        }
    }
    isoscope::computeStats(volume);
    return volume;
}

// The samples in the file's byte order.
inline std::vector<std::byte> encodeSamples(const Volume& volume, bool bigEndian)
{
    std::vector<std::byte> bytes = volume.data;
    size_t size = isoscope::scalarSize(volume.type);
    if (bigEndian)
        for (size_t i = 0; i < bytes.size(); i += size)
            std::reverse(bytes.begin() + i, bytes.begin() + i + size);
    return bytes;
}

// zlib (MetaImage) or gzip (NRRD) stream of bytes.
inline std::vector<std::byte> compress(const std::vector<std::byte>& bytes, bool gzip)
{
    z_stream stream{};
    REQUIRE(deflateInit2(&stream, 6, Z_DEFLATED, gzip ? 31 : 15, 8, Z_DEFAULT_STRATEGY) == Z_OK);
    std::vector<std::byte> out(deflateBound(&stream, uLong(bytes.size())) + 32);
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<std::byte*>(bytes.data()));
    stream.avail_in = uInt(bytes.size());
    stream.next_out = reinterpret_cast<Bytef*>(out.data());
    stream.avail_out = uInt(out.size());
    REQUIRE(deflate(&stream, Z_FINISH) == Z_STREAM_END);
    out.resize(stream.total_out);
    deflateEnd(&stream);
    return out;
}

inline std::string numbers(const std::array<double, 3>& values)
{
    std::string text;
    for (double value : values) {
        char word[32];
        std::snprintf(word, sizeof(word), "%.17g", value);
        text += (text.empty() ? "" : " ") + std::string(word);
    }
    return text;
}

inline std::string sizes(const std::array<uint32_t, 3>& dims)
{
    return std::to_string(dims[0]) + " " + std::to_string(dims[1]) + " " + std::to_string(dims[2]);
}

// Same grid, same type, same bytes (so NaN matches NaN).
inline void requireSameVolume(const Volume& read, const Volume& expected)
{
    REQUIRE(read.dims == expected.dims);
    REQUIRE(read.type == expected.type);
    CHECK(read.spacing == expected.spacing);
    CHECK(read.origin == expected.origin);
    REQUIRE(read.data.size() == expected.data.size());
    CHECK(read.data == expected.data);
    CHECK(read.stats.min == expected.stats.min);
    CHECK(read.stats.max == expected.stats.max);
    CHECK(read.stats.nonFinite == expected.stats.nonFinite);
}

// Reads path and requires an Error naming the file and mentioning problem.
inline void requireReadError(const fs::path& path, const std::string& problem,
                             const isoscope::RawOptions& options = {})
{
    INFO(path.filename().string());
    std::string message = errorMessage([&] { isoscope::readVolumeFile(path, options); });
    CHECK_THAT(message, Catch::Matchers::Contains(path.filename().string()) && Catch::Matchers::Contains(problem));
}

} // namespace volumetest
