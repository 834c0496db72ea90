// Raw files: sizes and type from the caller or from the file's name.
#include "volume/readers.h"
#include "volume_test_support.h"

using namespace isoscope;
using namespace volumetest;

TEST_CASE("raw files named name_XxYxZ_type.raw read with sizes and type from the name", "[volume]")
{
    for (ScalarType type : allTypes) {
        INFO(scalarName(type));
        Volume expected = makeTestVolume(type);
        expected.spacing = {1, 1, 1};
        expected.origin = {0, 0, 0};
        fs::path path = tmpPath("ramp_5x4x3_" + std::string(scalarName(type)) + ".raw");
        writeFile(path, "", expected.data);
        requireSameVolume(readVolumeFile(path), expected);
        requireSameVolume(loadVolume(path.string()), expected);
    }
}

TEST_CASE("raw options override the name and set spacing, byte order and a header to skip", "[volume]")
{
    Volume expected = makeTestVolume(ScalarType::Int16);
    expected.origin = {0, 0, 0};
    fs::path path = tmpPath("misleading_9x9x9_uint8.raw");
    writeFile(path, "16 header bytes!", encodeSamples(expected, true));
    RawOptions options;
    options.dims = expected.dims;
    options.type = ScalarType::Int16;
    options.spacing = expected.spacing;
    options.bigEndian = true;
    options.headerBytes = 16;
    requireSameVolume(readVolumeFile(path, options), expected);
}

TEST_CASE("a raw file accepts the C spellings of types in its name", "[volume]")
{
    Volume expected = makeTestVolume(ScalarType::UInt16, {2, 3, 2});
    expected.spacing = {1, 1, 1};
    expected.origin = {0, 0, 0};
    fs::path path = tmpPath("scan_2x3x2_ushort.raw");
    writeFile(path, "", expected.data);
    requireSameVolume(readVolumeFile(path), expected);
}

TEST_CASE("parseScalarName inverts scalarName and knows the common spellings", "[volume]")
{
    for (ScalarType type : allTypes) {
        CHECK(parseScalarName(scalarName(type)) == type);
        CHECK(scalarSize(type) == (type == ScalarType::UInt8 ? 1u : type == ScalarType::Float32 ? 4u : 2u));
    }
    CHECK(parseScalarName("uchar") == ScalarType::UInt8);
    CHECK(parseScalarName("unsigned char") == ScalarType::UInt8);
    CHECK(parseScalarName("ushort") == ScalarType::UInt16);
    CHECK(parseScalarName("short") == ScalarType::Int16);
    CHECK(parseScalarName("float") == ScalarType::Float32);
    CHECK_FALSE(parseScalarName("double").has_value());
    CHECK_FALSE(parseScalarName("int8").has_value());
}

TEST_CASE("valueAt converts every type exactly and computeStats finds min, max and mean", "[volume]")
{
    Volume volume;
    volume.dims = {4, 1, 1};
    volume.type = ScalarType::Int16;
    const int16_t samples[] = {-32768, 32767, 0, 1};
    volume.data.resize(sizeof(samples));
    std::memcpy(volume.data.data(), samples, sizeof(samples));
    CHECK(volume.valueAt(0) == -32768.0f);
    CHECK(volume.value(1, 0, 0) == 32767.0f);
    computeStats(volume);
    CHECK(volume.stats.min == -32768.0);
    CHECK(volume.stats.max == 32767.0);
    CHECK(volume.stats.mean == 0.0);
    CHECK(volume.stats.nonFinite == 0);
}
