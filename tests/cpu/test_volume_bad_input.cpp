// Bad files: every reader answers with an Error that names the file and the
// problem, never a crash, a hang or a read past the end.
#include <chrono>

#include "volume/readers.h"
#include "volume_test_support.h"

using namespace isoscope;
using namespace volumetest;
using Catch::Matchers::Contains;

namespace {

// Writes `name` to the scratch folder (header text, then bytes) and requires
// reading it to fail with an Error naming the file and mentioning problem.
void requireRefused(const std::string& name, const std::string& problem, const std::string& text,
                    const std::vector<std::byte>& bytes = {})
{
    requireReadError(writeTestFile(name, text, bytes), problem);
}

const Volume& sample()
{
    static Volume volume = makeTestVolume(ScalarType::Int16);
    return volume;
}

std::string nrrdHeader(const std::string& fields)
{
    return "NRRD0004\n" + fields;
}

const std::string goodNrrdFields = "type: short\ndimension: 3\nsizes: 5 4 3\nendian: little\nencoding: raw\n";

std::vector<std::byte> firstBytes(const std::vector<std::byte>& bytes, size_t count)
{
    return {bytes.begin(), bytes.begin() + count};
}

std::string vtkHeader(const std::string& format, const std::string& body)
{
    return "# vtk DataFile Version 3.0\nbad\n" + format + "\nDATASET STRUCTURED_POINTS\n" + body;
}

const std::string goodVtkBody = "DIMENSIONS 5 4 3\nSPACING 1 1 1\nORIGIN 0 0 0\nPOINT_DATA 60\nSCALARS s short 1\n"
                                "LOOKUP_TABLE default\n";

} // namespace

TEST_CASE("truncated files are refused with the sizes involved, in every format", "[volume]")
{
    std::vector<std::byte> shortData = firstBytes(sample().data, sample().data.size() - 2);

    requireRefused("truncated.nrrd", "truncated", nrrdHeader(goodNrrdFields) + "\n", shortData);

    fs::path raw = tmpPath("truncated_data.raw");
    writeFile(raw, "", shortData);
    requireRefused("truncated.nhdr", "truncated", nrrdHeader(goodNrrdFields) + "data file: truncated_data.raw\n");

    requireRefused("truncated.mha", "truncated",
                   "NDims = 3\nDimSize = 5 4 3\nElementType = MET_SHORT\nElementDataFile = LOCAL\n", shortData);

    requireRefused("truncated_binary.vtk", "truncated", vtkHeader("BINARY", goodVtkBody), shortData);

    fs::path vtkAscii = tmpPath("truncated_ascii.vtk");
    std::string values;
    for (int i = 0; i < 59; ++i)
        values += "70 ";
    writeFile(vtkAscii, vtkHeader("ASCII", goodVtkBody) + values);
    requireReadError(vtkAscii, "found 59 of the 60 values");

    requireRefused("cut_5x4x3_int16.raw", "needs exactly 120", "", shortData);
}

TEST_CASE("truncated or corrupt compressed data are refused", "[volume]")
{
    std::vector<std::byte> gzip = compress(sample().data, true);
    requireRefused("cut_gzip.nrrd", "compressed data",
                   nrrdHeader("type: short\ndimension: 3\nsizes: 5 4 3\nendian: little\nencoding: gzip\n\n"),
                   firstBytes(gzip, gzip.size() / 2));

    std::vector<std::byte> corrupt = gzip;
    for (size_t i = 12; i < corrupt.size(); i += 3)
        corrupt[i] ^= std::byte{0x5a};
    requireRefused(
        "corrupt.mha", "compressed data",
        "NDims = 3\nDimSize = 5 4 3\nElementType = MET_SHORT\nCompressedData = True\nElementDataFile = LOCAL\n",
        corrupt);

    // A tiny stream that claims a huge volume is refused before allocating.
    requireRefused("claims_too_much.nrrd", "cannot hold",
                   nrrdHeader("type: float\ndimension: 3\nsizes: 4096 4096 4096\nendian: little\nencoding: gz\n\n"),
                   gzip);
}

TEST_CASE("data that do not match the header's sizes are refused", "[volume]")
{
    std::vector<std::byte> longer = sample().data;
    longer.resize(longer.size() + 10);
    requireRefused("too_long.nrrd", "check sizes", nrrdHeader(goodNrrdFields) + "\n", longer);

    fs::path mhd = tmpPath("too_long.mhd");
    fs::path data = tmpPath("too_long_data.raw");
    writeFile(data, "", longer);
    writeFile(mhd, "NDims = 3\nDimSize = 5 4 3\nElementType = MET_SHORT\nElementDataFile = too_long_data.raw\n");
    requireReadError(mhd, "check DimSize");

    requireRefused("point_count.vtk", "does not match DIMENSIONS",
                   vtkHeader("BINARY", "DIMENSIONS 5 4 3\nPOINT_DATA 61\nSCALARS s short\nLOOKUP_TABLE default\n"),
                   sample().data);

    requireRefused("wrong_6x4x3_int16.raw", "needs exactly 144", "", sample().data);
}

TEST_CASE("unknown sample types are refused, listing the supported ones", "[volume]")
{
    requireRefused("double.nrrd", "uchar, ushort, short and float",
                   nrrdHeader("type: double\ndimension: 3\nsizes: 1 1 1\nendian: little\nencoding: raw\n\n"),
                   std::vector<std::byte>(8));

    requireRefused("double.mha", "MET_UCHAR, MET_USHORT, MET_SHORT and MET_FLOAT",
                   "NDims = 3\nDimSize = 1 1 1\nElementType = MET_DOUBLE\nElementDataFile = LOCAL\n",
                   std::vector<std::byte>(8));

    requireRefused("double.vtk", "unsigned_char, unsigned_short, short and float",
                   vtkHeader("ASCII", "DIMENSIONS 1 1 1\nPOINT_DATA 1\nSCALARS s double 1\nLOOKUP_TABLE default\n1\n"));

    requireRefused("volume_2x2x2_float64.raw", "--type", "", std::vector<std::byte>(64));
}

TEST_CASE("unknown NRRD encodings are refused", "[volume]")
{
    requireRefused("bzip2.nrrd", "encoding 'bzip2'",
                   nrrdHeader("type: short\ndimension: 3\nsizes: 5 4 3\nendian: little\nencoding: bzip2\n\n"),
                   sample().data);
}

TEST_CASE("missing required fields are named", "[volume]")
{
    requireRefused("no_sizes.nrrd", "'sizes:'",
                   nrrdHeader("type: short\ndimension: 3\nendian: little\nencoding: raw\n\n"), sample().data);

    requireRefused("no_endian.nrrd", "'endian:'",
                   nrrdHeader("type: short\ndimension: 3\nsizes: 5 4 3\nencoding: raw\n\n"), sample().data);

    requireRefused("no_dimsize.mha", "DimSize", "NDims = 3\nElementType = MET_SHORT\nElementDataFile = LOCAL\n",
                   sample().data);

    requireRefused("no_datafile.mha", "ElementDataFile", "NDims = 3\nDimSize = 5 4 3\nElementType = MET_SHORT\n");

    requireRefused("no_dimensions.vtk", "DIMENSIONS",
                   vtkHeader("BINARY", "POINT_DATA 60\nSCALARS s short 1\nLOOKUP_TABLE default\n"), sample().data);

    requireRefused("anonymous.raw", "does not say its sizes and type", "", sample().data);
}

TEST_CASE("zero and negative sizes are refused", "[volume]")
{
    requireRefused("zero.nrrd", "must be positive",
                   nrrdHeader("type: uchar\ndimension: 3\nsizes: 5 0 3\nencoding: raw\n\n"));

    requireRefused("negative.mha", "must be positive",
                   "NDims = 3\nDimSize = 5 -4 3\nElementType = MET_UCHAR\nElementDataFile = LOCAL\n");

    requireRefused("negative.vtk", "must be positive",
                   vtkHeader("ASCII", "DIMENSIONS -5 4 3\nPOINT_DATA 60\nSCALARS s short\n"));

    RawOptions options;
    options.dims = std::array<uint32_t, 3>{5, 0, 3};
    options.type = ScalarType::UInt8;
    fs::path raw = tmpPath("zero.raw");
    writeFile(raw, "", sample().data);
    requireReadError(raw, "must be positive", options);
}

TEST_CASE("sizes whose product overflows or passes 1 TiB are refused before allocating", "[volume]")
{
    requireRefused("overflow.nrrd", "more than 1 TiB",
                   nrrdHeader("type: float\ndimension: 3\nsizes: 4294967295 4294967295 4294967295\n"
                              "endian: little\nencoding: raw\n\n"));

    requireRefused("huge.mha", "more than 1 TiB",
                   "NDims = 3\nDimSize = 16384 16384 4097\nElementType = MET_UCHAR\nElementDataFile = LOCAL\n");

    requireRefused("huge.vtk", "more than 1 TiB",
                   vtkHeader("BINARY", "DIMENSIONS 100000 100000 100000\nPOINT_DATA 1\nSCALARS s float\n"));

    requireRefused("too_large.nrrd", "too large",
                   nrrdHeader("type: uchar\ndimension: 3\nsizes: 99999999999999999999 1 1\nencoding: raw\n\n"));

    requireRefused("beyond32.nrrd", "too large",
                   nrrdHeader("type: uchar\ndimension: 3\nsizes: 4294967296 1 1\nencoding: raw\n\n"));
}

TEST_CASE("data that are not 3D are refused", "[volume]")
{
    requireRefused("image.nrrd", "3D", nrrdHeader("type: uchar\ndimension: 2\nsizes: 5 4\nencoding: raw\n\n"),
                   std::vector<std::byte>(20));

    requireRefused("series.nrrd", "3D", nrrdHeader("type: uchar\ndimension: 3\nsizes: 5 4 3 2\nencoding: raw\n\n"),
                   std::vector<std::byte>(120));

    requireRefused("image.mha", "3D", "NDims = 2\nDimSize = 5 4\nElementType = MET_UCHAR\nElementDataFile = LOCAL\n",
                   std::vector<std::byte>(20));

    requireRefused("rgb.mha", "channels",
                   "NDims = 3\nDimSize = 5 4 3\nElementNumberOfChannels = 3\nElementType = MET_UCHAR\n"
                   "ElementDataFile = LOCAL\n",
                   std::vector<std::byte>(180));

    requireRefused("grid.vtk", "STRUCTURED_POINTS",
                   "# vtk DataFile Version 3.0\nbad\nASCII\nDATASET UNSTRUCTURED_GRID\nPOINTS 1 float\n0 0 0\n");

    requireRefused("vectors.vtk", "components",
                   vtkHeader("ASCII", "DIMENSIONS 1 1 1\nPOINT_DATA 1\nSCALARS s float 3\n1 2 3\n"));
}

TEST_CASE("a missing data file is named, with the header", "[volume]")
{
    fs::path nhdr = tmpPath("orphan.nhdr");
    writeFile(nhdr, nrrdHeader(goodNrrdFields) + "data file: orphan_gone.raw\n");
    std::string message = errorMessage([&] { readVolumeFile(nhdr); });
    CHECK_THAT(message, Contains("orphan.nhdr") && Contains("orphan_gone.raw") && Contains("missing"));

    fs::path mhd = tmpPath("orphan.mhd");
    writeFile(mhd, "NDims = 3\nDimSize = 5 4 3\nElementType = MET_SHORT\nElementDataFile = orphan_gone.raw\n");
    message = errorMessage([&] { readVolumeFile(mhd); });
    CHECK_THAT(message, Contains("orphan.mhd") && Contains("orphan_gone.raw") && Contains("missing"));
}

TEST_CASE("a data file name the file system refuses (too long) is an Error naming the header", "[volume]")
{
    // NAME_MAX is 255 on Linux: looking this name up fails with ENAMETOOLONG,
    // which the throwing std::filesystem calls turn into filesystem_error.
    std::string tooLong = std::string(300, 'a') + ".raw";

    fs::path nhdr = tmpPath("long_name.nhdr");
    writeFile(nhdr, nrrdHeader(goodNrrdFields) + "data file: " + tooLong + "\n");
    std::string message = errorMessage([&] { readVolumeFile(nhdr); });
    CHECK_THAT(message, Contains("long_name.nhdr") && Contains("data file"));

    fs::path mhd = tmpPath("long_name.mhd");
    writeFile(mhd, "NDims = 3\nDimSize = 5 4 3\nElementType = MET_SHORT\nElementDataFile = " + tooLong + "\n");
    message = errorMessage([&] { readVolumeFile(mhd); });
    CHECK_THAT(message, Contains("long_name.mhd") && Contains("data file"));

    fs::path direct = tmpPath("unused").parent_path() / (std::string(300, 'b') + ".nrrd"); // tmpPath would remove it
    message = errorMessage([&] { readVolumeFile(direct); });
    CHECK_THAT(message, Contains("bbbb.nrrd"));
}

TEST_CASE("files that are not what their extension says are refused", "[volume]")
{
    requireRefused("not_nrrd.nrrd", "not a NRRD file", "P5\n5 4\n255\n", sample().data);

    requireRefused("not_vtk.vtk", "not a VTK legacy file", "solid stl\n");

    requireRefused("not_mha.mha", "is this a MetaImage file", "", sample().data);

    fs::path endless = tmpPath("endless.nrrd"); // no blank line ends the header
    writeFile(endless, nrrdHeader(goodNrrdFields));
    requireReadError(endless, "does not end");

    requireRefused("empty.nrrd", "not a NRRD file", "");
}

TEST_CASE("bad ASCII VTK values are refused with their position", "[volume]")
{
    requireRefused("out_of_range.vtk", "value 1 '300'",
                   vtkHeader("ASCII", "DIMENSIONS 2 1 1\nPOINT_DATA 2\nSCALARS s unsigned_char\n12 300\n"));

    requireRefused("garbage.vtk", "value 1 'abc",
                   vtkHeader("ASCII", "DIMENSIONS 2 1 1\nPOINT_DATA 2\nSCALARS s float\n1.5 abc\n"));
}

TEST_CASE("unknown extensions, folders and missing files are refused", "[volume]")
{
    requireRefused("scan.xyz", "unknown volume format '.xyz'", "DICM");

    fs::path folder = tmpPath("folder.nrrd");
    fs::create_directories(folder);
    requireReadError(folder, "folder");

    requireReadError(tmpPath("never_written.nrrd"), "no such file");
}

TEST_CASE("every prefix of a valid file is an Error or the full volume, never a crash", "[volume]")
{
    // Cutting a file anywhere, header included, must not read past the end.
    Volume expected = makeTestVolume(ScalarType::Float32, {4, 3, 2});
    std::vector<std::byte> big = encodeSamples(expected, true);
    std::string vtkBody = "DIMENSIONS 4 3 2\nSPACING 0.5 1.25 2\nORIGIN -3 0.125 10\nPOINT_DATA 24\n"
                          "SCALARS s float 1\nLOOKUP_TABLE default\n";
    std::string ascii;
    for (uint64_t i = 0; i < expected.sampleCount(); ++i)
        ascii += std::to_string(expected.valueAt(i)) + " ";
    struct Whole {
        std::string name;
        std::string header;
        std::vector<std::byte> data;
    };
    const Whole files[] = {
        {"prefix.nrrd", "NRRD0004\ntype: float\ndimension: 3\nsizes: 4 3 2\nendian: big\nencoding: raw\n\n", big},
        {"prefix_gz.nrrd", "NRRD0004\ntype: float\ndimension: 3\nsizes: 4 3 2\nendian: big\nencoding: gzip\n\n",
         compress(big, true)},
        {"prefix.mha", "NDims = 3\nDimSize = 4 3 2\nElementType = MET_FLOAT\nElementByteOrderMSB = True\n"
                       "CompressedData = True\nElementDataFile = LOCAL\n",
         compress(big, false)},
        {"prefix_binary.vtk", vtkHeader("BINARY", vtkBody), big},
        {"prefix_ascii.vtk", vtkHeader("ASCII", vtkBody + ascii), {}},
    };
    for (const Whole& whole : files) {
        std::vector<std::byte> bytes;
        for (char c : whole.header)
            bytes.push_back(std::byte(c));
        bytes.insert(bytes.end(), whole.data.begin(), whole.data.end());
        fs::path path = tmpPath(whole.name);
        uint64_t errors = 0;
        for (size_t length = 0; length < bytes.size(); ++length) {
            writeFile(path, "", firstBytes(bytes, length));
            try {
                readVolumeFile(path);
            } catch (const Error& error) {
                ++errors;
                CHECK_THAT(error.what(), Contains(whole.name));
            }
        }
        INFO(whole.name);
        // Only an ASCII file cut inside its last number can still parse.
        CHECK(errors >= bytes.size() - 12);
        writeFile(path, "", bytes);
        CHECK(readVolumeFile(path).sampleCount() == 24);
    }
}

TEST_CASE("a NRRD whose space origin is not finite is refused, as MetaImage and VTK refuse theirs", "[volume][robustness]")
{
    for (const char* origin : {"(nan,nan,nan)", "(0,inf,0)", "(0,0,-inf)", "(1e400,0,0)"}) {
        INFO(origin);
        fs::path nrrd = tmpPath("nan_origin.nrrd");
        writeFile(nrrd, nrrdHeader(goodNrrdFields + "space dimension: 3\nspace origin: " + origin + "\n\n"),
                  sample().data);
        std::string message = errorMessage([&] { readVolumeFile(nrrd); });
        CHECK_THAT(message, Contains("nan_origin.nrrd") && Contains("space origin"));
    }
}

TEST_CASE("a gzip NRRD that claims far more than its data hold fails when the data end, quickly", "[volume][robustness]")
{
    // 4.3 MB of incompressible bytes under a header of 1024^3 float32 (4 GiB):
    // enough compressed data to pass the 1032:1 deflate bound, far too little
    // for the sizes. Decoding in chunks fails after about 4.3 MB of output.
    std::vector<std::byte> noise(4300000);
    uint64_t state = 0x9E3779B97F4A7C15ull;
    for (std::byte& b : noise) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        b = std::byte(state >> 56);
    }
    std::vector<std::byte> gzip = compress(noise, true);
    fs::path raw = tmpPath("bomb.raw.gz");
    writeFile(raw, "", gzip);
    fs::path nhdr = tmpPath("bomb.nhdr");
    writeFile(nhdr, nrrdHeader("type: float\ndimension: 3\nsizes: 1024 1024 1024\nendian: little\nencoding: gzip\n"
                               "data file: bomb.raw.gz\n"));
    auto start = std::chrono::steady_clock::now();
    std::string message = errorMessage([&] { readVolumeFile(nhdr); });
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    CHECK_THAT(message, Contains("bomb.raw.gz") && Contains("4300000 of the 4294967296 bytes"));
    CHECK(seconds < 3.0); // 11 s when the 4 GiB were allocated and zeroed first
}
