// VTK legacy structured points, binary and ASCII, read back sample for sample.
#include <cmath>
#include <cstdio>

#include "volume/readers.h"
#include "volume/write_nrrd.h"
#include "volume_test_support.h"

using namespace isoscope;
using namespace volumetest;

namespace {

std::string vtkTypeName(ScalarType type)
{
    switch (type) {
    case ScalarType::UInt8: return "unsigned_char";
    case ScalarType::UInt16: return "unsigned_short";
    case ScalarType::Int16: return "short";
    case ScalarType::Float32: return "float";
    }
    return "";
}

std::string vtkHeader(const Volume& volume, bool binary, const std::string& spacingKeyword = "SPACING")
{
    return "# vtk DataFile Version 3.0\nwritten by the isoscope tests\n" + std::string(binary ? "BINARY" : "ASCII") +
           "\nDATASET STRUCTURED_POINTS\nDIMENSIONS " + sizes(volume.dims) + "\n" + spacingKeyword + " " +
           numbers(volume.spacing) + "\nORIGIN " + numbers(volume.origin) + "\nPOINT_DATA " +
           std::to_string(volume.sampleCount()) + "\nSCALARS density " + vtkTypeName(volume.type) +
           " 1\nLOOKUP_TABLE default\n";
}

// Values as VTK's writer prints them: integers plainly, floats with enough
// digits to read back identical, several per line.
std::string asciiValues(const Volume& volume)
{
    std::string text;
    for (uint64_t i = 0; i < volume.sampleCount(); ++i) {
        char word[32];
        if (volume.type == ScalarType::Float32)
            std::snprintf(word, sizeof(word), "%.9g", double(volume.valueAt(i)));
        else
            std::snprintf(word, sizeof(word), "%d", int(volume.valueAt(i)));
        text += word;
        text += (i % 9 == 8) ? "\n" : " ";
    }
    return text + "\n";
}

} // namespace

TEST_CASE("VTK binary structured points round trip every type (big-endian, as VTK writes)", "[volume]")
{
    for (ScalarType type : allTypes) {
        INFO(scalarName(type));
        Volume expected = makeTestVolume(type);
        fs::path path = tmpPath("vtk_binary_" + std::string(scalarName(type)) + ".vtk");
        writeFile(path, vtkHeader(expected, true), encodeSamples(expected, true));
        requireSameVolume(readVolumeFile(path), expected);
    }
}

TEST_CASE("VTK binary files may carry more sections after the scalars", "[volume]")
{
    Volume expected = makeTestVolume(ScalarType::Float32);
    std::vector<std::byte> payload = encodeSamples(expected, true);
    std::string trailer = "\nFIELD FieldData 1\nextra 1 1 float\n";
    for (char c : trailer)
        payload.push_back(std::byte(c));
    fs::path path = tmpPath("vtk_trailer.vtk");
    writeFile(path, vtkHeader(expected, true), payload);
    requireSameVolume(readVolumeFile(path), expected);
}

TEST_CASE("VTK ASCII structured points round trip every type", "[volume]")
{
    for (ScalarType type : allTypes) {
        INFO(scalarName(type));
        Volume expected = makeTestVolume(type);
        fs::path path = tmpPath("vtk_ascii_" + std::string(scalarName(type)) + ".vtk");
        writeFile(path, vtkHeader(expected, false) + asciiValues(expected));
        requireSameVolume(readVolumeFile(path), expected);
    }
}

TEST_CASE("VTK reads ASPECT_RATIO as spacing and SCALARS without a component count or LOOKUP_TABLE", "[volume]")
{
    Volume expected = makeTestVolume(ScalarType::Int16, {3, 2, 2});
    std::string header = "# vtk DataFile Version 2.0\ntitle\nASCII\n\nDATASET STRUCTURED_POINTS\nDIMENSIONS 3 2 2\n"
                         "ASPECT_RATIO " + numbers(expected.spacing) + "\nORIGIN " + numbers(expected.origin) +
                         "\n\nPOINT_DATA 12\nSCALARS v short\n";
    fs::path path = tmpPath("vtk_minimal.vtk");
    writeFile(path, header + asciiValues(expected));
    requireSameVolume(readVolumeFile(path), expected);
}

TEST_CASE("NaN and infinities are kept, counted and left out of min and max (VTK binary and ASCII, NRRD)", "[volume]")
{
    Volume expected = makeTestVolume(ScalarType::Float32);
    float nan = std::nanf(""), inf = INFINITY;
    std::memcpy(expected.data.data() + 4 * 1, &nan, 4);
    std::memcpy(expected.data.data() + 4 * 7, &inf, 4);
    float minusInf = -inf;
    std::memcpy(expected.data.data() + 4 * 20, &minusInf, 4);
    computeStats(expected);
    REQUIRE(expected.stats.nonFinite == 3);
    REQUIRE(std::isfinite(expected.stats.max));

    fs::path binary = tmpPath("nonfinite_binary.vtk");
    writeFile(binary, vtkHeader(expected, true), encodeSamples(expected, true));
    fs::path ascii = tmpPath("nonfinite_ascii.vtk");
    writeFile(ascii, vtkHeader(expected, false) + asciiValues(expected)); // prints nan, inf, -inf
    fs::path nrrd = tmpPath("nonfinite.nrrd");
    writeNrrd(expected, nrrd);
    for (const fs::path& path : {binary, ascii, nrrd}) {
        INFO(path);
        Volume read = readVolumeFile(path);
        CHECK(read.stats.nonFinite == 3);
        CHECK(read.stats.min == expected.stats.min);
        CHECK(read.stats.max == expected.stats.max);
        CHECK(std::isnan(read.value(1, 0, 0)));
        CHECK(read.value(2, 1, 0) == inf);
        CHECK(read.value(0, 0, 1) == -inf);
    }
}
