// NRRD files as teem and other tools write them read back sample for sample.
#include "volume/readers.h"
#include "volume/synthetic.h"
#include "volume/write_nrrd.h"
#include "volume_test_support.h"

using namespace isoscope;
using namespace volumetest;

namespace {

// "(x,y,z)", as NRRD writes vectors.
std::string vector(const std::array<double, 3>& values)
{
    std::string text = numbers(values);
    std::replace(text.begin(), text.end(), ' ', ',');
    return "(" + text + ")";
}

std::string nrrdTypeName(ScalarType type)
{
    switch (type) {
    case ScalarType::UInt8: return "unsigned char";
    case ScalarType::UInt16: return "unsigned short";
    case ScalarType::Int16: return "short";
    case ScalarType::Float32: return "float";
    }
    return "";
}

struct NrrdLayout {
    bool bigEndian = false;
    bool gzip = false;
    bool detached = false;
    bool spaceDirections = false; // instead of spacings
};

// Writes volume as NRRD the way teem would, returns the header's path.
fs::path writeTestNrrd(const Volume& volume, const std::string& stem, NrrdLayout layout)
{
    std::vector<std::byte> payload = encodeSamples(volume, layout.bigEndian);
    if (layout.gzip)
        payload = compress(payload, true);
    const auto& s = volume.spacing;
    const auto& o = volume.origin;
    std::string header = "NRRD0005\n# a comment\ntype: " + nrrdTypeName(volume.type) + "\ndimension: 3\n";
    if (layout.spaceDirections)
        header += "space: left-posterior-superior\nspace directions: " + vector({s[0], 0, 0}) + " " +
                  vector({0, s[1], 0}) + " " + vector({0, 0, s[2]}) + "\n";
    header += "sizes: " + sizes(volume.dims) + "\n";
    if (!layout.spaceDirections)
        header += "spacings: " + numbers(s) + "\n";
    header += "space origin: " + vector(o) + "\n";
    header += "kinds: domain domain domain\nkey:=value with: colon\n";
    header += std::string("endian: ") + (layout.bigEndian ? "big" : "little") + "\n";
    header += std::string("encoding: ") + (layout.gzip ? "gzip" : "raw") + "\n";
    if (layout.detached)
        return writeDetached(stem + ".nhdr", header, "data file: ", stem + (layout.gzip ? ".raw.gz" : ".raw"), payload);
    return writeTestFile(stem + ".nrrd", header + "\n", payload);
}

} // namespace

TEST_CASE("NRRD round trips every type, attached and detached, raw and gzip, either endian", "[volume]")
{
    for (ScalarType type : allTypes)
        for (bool bigEndian : {false, true})
            for (bool gzip : {false, true})
                for (bool detached : {false, true}) {
                    NrrdLayout layout{bigEndian, gzip, detached, detached};
                    std::string stem = "nrrd_" + std::string(scalarName(type)) + (bigEndian ? "_big" : "_little") +
                                       (gzip ? "_gzip" : "_raw") + (detached ? "_detached" : "_attached");
                    INFO(stem);
                    Volume expected = makeTestVolume(type);
                    fs::path path = writeTestNrrd(expected, stem, layout);
                    Volume read = readVolumeFile(path);
                    requireSameVolume(read, expected);
                    CHECK(read.source == path.string());
                }
}

TEST_CASE("NRRD reads every spelling the format allows for the four types", "[volume]")
{
    struct Spelling {
        const char* name;
        ScalarType type;
    };
    const Spelling spellings[] = {
        {"uchar", ScalarType::UInt8},           {"unsigned char", ScalarType::UInt8},
        {"uint8", ScalarType::UInt8},           {"uint8_t", ScalarType::UInt8},
        {"ushort", ScalarType::UInt16},         {"unsigned short", ScalarType::UInt16},
        {"unsigned short int", ScalarType::UInt16}, {"uint16", ScalarType::UInt16},
        {"uint16_t", ScalarType::UInt16},       {"short", ScalarType::Int16},
        {"short int", ScalarType::Int16},       {"signed short", ScalarType::Int16},
        {"signed short int", ScalarType::Int16}, {"int16", ScalarType::Int16},
        {"int16_t", ScalarType::Int16},         {"float", ScalarType::Float32},
    };
    for (const Spelling& spelling : spellings) {
        INFO(spelling.name);
        Volume expected = makeTestVolume(spelling.type, {3, 2, 2});
        fs::path path = tmpPath("spelling.nrrd");
        writeFile(path, std::string("NRRD0004\ntype: ") + spelling.name + "\ndimension: 3\nsizes: 3 2 2\n" +
                            "endian: little\nencoding: raw\n\n", expected.data);
        Volume read = readVolumeFile(path);
        CHECK(read.type == spelling.type);
        CHECK(read.data == expected.data);
    }
}

TEST_CASE("NRRD space directions give spacing as vector lengths, space origin the origin", "[volume]")
{
    Volume expected = makeTestVolume(ScalarType::UInt8, {3, 2, 2});
    fs::path path = tmpPath("directions.nrrd");
    writeFile(path,
              "NRRD0004\ntype: uchar\ndimension: 3\nspace dimension: 3\nsizes: 3 2 2\n"
              "space directions: (0,3,4) (-2,0,0) (0, 0, 0.5)\nspace origin: (1.5,-2,7)\nencoding: raw\n\n",
              expected.data);
    Volume read = readVolumeFile(path);
    CHECK(read.spacing == std::array<double, 3>{5.0, 2.0, 0.5});
    CHECK(read.origin == std::array<double, 3>{1.5, -2.0, 7.0});
    // The rotation is kept as the index-to-world map: columns the directions, translation the origin.
    REQUIRE(read.indexToWorld.has_value());
    CHECK(*read.indexToWorld == Affine{{{0, -2, 0, 1.5}, {3, 0, 0, -2}, {4, 0, 0.5, 7}, {0, 0, 0, 1}}});

    // And writeNrrd writes it back whole.
    fs::path again = tmpPath("directions_again.nrrd");
    writeNrrd(read, again);
    Volume reread = readVolumeFile(again);
    CHECK(reread.indexToWorld == read.indexToWorld);
    CHECK(reread.spacing == read.spacing);
    CHECK(reread.data == read.data);
}

TEST_CASE("NRRD without spacing fields has unit spacing and zero origin; NaN spacings mean unknown", "[volume]")
{
    Volume expected = makeTestVolume(ScalarType::UInt8, {3, 2, 2});
    fs::path path = tmpPath("plain.nrrd");
    writeFile(path, "NRRD0001\ntype: uchar\ndimension: 3\nsizes: 3 2 2\nencoding: raw\n\n", expected.data);
    Volume read = readVolumeFile(path);
    CHECK(read.spacing == std::array<double, 3>{1, 1, 1});
    CHECK(read.origin == std::array<double, 3>{0, 0, 0});

    writeFile(path, "NRRD0004\ntype: uchar\ndimension: 3\nsizes: 3 2 2\nspacings: nan 2 NaN\nencoding: raw\n\n",
              expected.data);
    CHECK(readVolumeFile(path).spacing == std::array<double, 3>{1, 2, 1});
}

TEST_CASE("NRRD byte skip and line skip step over a data file's own header", "[volume]")
{
    Volume expected = makeTestVolume(ScalarType::Int16);
    std::vector<std::byte> payload = encodeSamples(expected, false);
    std::string header = "NRRD0004\ntype: short\ndimension: 3\nsizes: " + sizes(expected.dims) +
                         "\nspacings: " + numbers(expected.spacing) + "\nspace origin: " + vector(expected.origin) +
                         "\nendian: little\nencoding: raw\n";

    fs::path data = tmpPath("skip.dat");
    writeFile(data, "line one\nline two\n0123456", payload);
    fs::path path = tmpPath("skip.nhdr");
    writeFile(path, header + "line skip: 2\nbyte skip: 7\ndata file: skip.dat\n");
    requireSameVolume(readVolumeFile(path), expected);

    writeFile(path, header + "byteskip: -1\ndatafile: skip.dat\n"); // -1: the data are the file's last bytes
    requireSameVolume(readVolumeFile(path), expected);
}

TEST_CASE("NRRD line skip in an attached file counts lines after the header, not from the file's start", "[volume]")
{
    Volume expected = makeTestVolume(ScalarType::Int16);
    std::string header = "NRRD0004\ntype: short\ndimension: 3\nsizes: " + sizes(expected.dims) +
                         "\nspacings: " + numbers(expected.spacing) + "\nspace origin: " + vector(expected.origin) +
                         "\nendian: little\nencoding: raw\n";
    fs::path path = tmpPath("attached_line_skip.nrrd");
    writeFile(path, header + "line skip: 2\n\nfirst line of the data's own header\nsecond\n",
              encodeSamples(expected, false));
    requireSameVolume(readVolumeFile(path), expected);

    writeFile(path, header + "line skip: 1\nbyte skip: 3\n\na line\nxyz", encodeSamples(expected, false));
    requireSameVolume(readVolumeFile(path), expected);

    // gzip: line skip counts lines of the file, before the compressed data.
    writeFile(path, "NRRD0004\ntype: short\ndimension: 3\nsizes: " + sizes(expected.dims) + "\nspacings: " +
                        numbers(expected.spacing) + "\nspace origin: " + vector(expected.origin) +
                        "\nendian: little\nencoding: gzip\nline skip: 1\n\nskipped\n",
              compress(encodeSamples(expected, false), true));
    requireSameVolume(readVolumeFile(path), expected);
}

TEST_CASE("NRRD gzip byte skip counts decompressed bytes", "[volume]")
{
    Volume expected = makeTestVolume(ScalarType::Float32);
    std::vector<std::byte> payload(5, std::byte{0x55});
    std::vector<std::byte> samples = encodeSamples(expected, true);
    payload.insert(payload.end(), samples.begin(), samples.end());
    fs::path path = tmpPath("gzip_skip.nrrd");
    writeFile(path,
              "NRRD0004\ntype: float\ndimension: 3\nsizes: " + sizes(expected.dims) + "\nspacings: " +
                  numbers(expected.spacing) + "\nspace origin: " + vector(expected.origin) +
                  "\nendian: big\nencoding: gz\nbyte skip: 5\n\n",
              compress(payload, true));
    requireSameVolume(readVolumeFile(path), expected);
}

TEST_CASE("NRRD headers with CRLF line endings read the same", "[volume]")
{
    Volume expected = makeTestVolume(ScalarType::UInt16, {3, 2, 2});
    fs::path path = tmpPath("crlf.nrrd");
    writeFile(path, "NRRD0004\r\ntype: ushort\r\ndimension: 3\r\nsizes: 3 2 2\r\nendian: little\r\nencoding: raw\r\n\r\n",
              expected.data);
    CHECK(readVolumeFile(path).data == expected.data);
}

TEST_CASE("writeNrrd round trips every type exactly, as .nrrd and as .nhdr + .raw", "[volume]")
{
    for (ScalarType type : allTypes)
        for (const char* extension : {".nrrd", ".nhdr"}) {
            INFO(scalarName(type) << extension);
            Volume expected = makeTestVolume(type);
            expected.spacing = {0.1, 1.0 / 3.0, 2.0 / 63.0}; // not exact in decimal: 17 digits must survive
            expected.origin = {-1.0 / 7.0, 1e-300, 12345.678};
            fs::path path = tmpPath("written_" + std::string(scalarName(type)) + extension);
            writeNrrd(expected, path);
            requireSameVolume(readVolumeFile(path), expected);
            if (std::string(extension) == ".nhdr")
                CHECK(fs::file_size(fs::path(path).replace_extension(".raw")) == expected.byteSize());
        }
}

TEST_CASE("writeNrrd hands on a synthetic field exactly", "[volume]")
{
    Volume expected = makeSyntheticVolume("marschner-lobb:17x12x9");
    fs::path path = tmpPath("lobb.nhdr");
    writeNrrd(expected, path);
    Volume read = readVolumeFile(path);
    requireSameVolume(read, expected);
}

TEST_CASE("writeNrrd refuses other extensions, naming the file", "[volume]")
{
    Volume volume = makeTestVolume(ScalarType::UInt8);
    std::string message = errorMessage([&] { writeNrrd(volume, tmpPath("out.vti")); });
    CHECK_THAT(message, Catch::Contains("out.vti") && Catch::Contains(".nhdr"));
}

TEST_CASE("writeNrrd refuses an .nhdr whose .raw is the volume's own source file, and leaves it intact", "[volume]")
{
    Volume expected = makeTestVolume(ScalarType::UInt16);
    fs::path raw = tmpPath("source_5x4x3_uint16.raw");
    writeFile(raw, "", encodeSamples(expected, false));
    Volume read = readVolumeFile(raw);
    REQUIRE(read.source == raw.string());
    read.spacing = {2.0, 2.0, 2.0}; // changed, so a rewrite would not be a no-op for the header

    fs::path nhdr = fs::path(raw).replace_extension(".nhdr");
    fs::remove(nhdr); // left by an earlier run
    std::string message = errorMessage([&] { writeNrrd(read, nhdr); });
    CHECK_THAT(message, Catch::Contains("source_5x4x3_uint16.raw") && Catch::Contains("source"));
    CHECK_FALSE(fs::exists(nhdr));
    CHECK(fs::file_size(raw) == expected.byteSize());

    // Through another spelling of the same path, too.
    fs::path dotted = raw.parent_path() / "." / nhdr.filename();
    CHECK_THAT(errorMessage([&] { writeNrrd(read, dotted); }), Catch::Contains("source"));

    // Another volume may replace a .raw of that name: only the source is protected.
    Volume other = makeTestVolume(ScalarType::UInt16);
    other.source = "cayley:8";
    writeNrrd(other, nhdr);
    requireSameVolume(readVolumeFile(nhdr), other);
}
