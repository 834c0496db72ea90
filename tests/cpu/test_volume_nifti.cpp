// NIfTI-1 files built byte by byte from the layout in nifti1.h (not through
// libnifti, which the reader uses), read back; and bad NIfTI files refused
// with an Error naming the file, never a crash. Agreement with nibabel on the
// files it writes is tests/vtk/test_nifti_vs_nibabel.py.
#include <bit>
#include <cmath>

#include "volume/readers.h"
#include "volume_test_support.h"

using namespace isoscope;
using namespace volumetest;
using Catch::Matchers::Contains;

namespace {

// nifti1.h datatype codes.
constexpr int16_t dtUInt8 = 2, dtInt16 = 4, dtInt32 = 8, dtFloat32 = 16, dtComplex64 = 32, dtFloat64 = 64,
                  dtInt8 = 256, dtUInt16 = 512;

int16_t niftiCode(ScalarType type)
{
    switch (type) {
    case ScalarType::UInt8: return dtUInt8;
    case ScalarType::UInt16: return dtUInt16;
    case ScalarType::Int16: return dtInt16;
    case ScalarType::Float32: return dtFloat32;
    }
    return 0;
}

// A 348-byte NIfTI-1 header (+ 4 bytes of extension flag) with the fields
// the reader uses; everything else zero. Offsets from nifti1.h.
struct Nifti1Header {
    std::array<int16_t, 8> dim{3, 5, 4, 3, 1, 1, 1, 1};
    int16_t datatype = dtInt16;
    int16_t bitpix = 16;
    std::array<float, 8> pixdim{1, 0.5f, 1.25f, 2.0f, 1, 1, 1, 1};
    float voxOffset = 352;
    float slope = 0, inter = 0;
    int16_t qformCode = 0, sformCode = 1;
    std::array<std::array<float, 4>, 3> srow{{{0.5f, 0, 0, -3}, {0, 1.25f, 0, 0.125f}, {0, 0, 2, 10}}};
    bool bigEndian = false;

    std::vector<std::byte> bytes() const
    {
        std::vector<std::byte> out(352);
        auto put = [&](size_t offset, auto value) {
            std::array<std::byte, sizeof(value)> raw = std::bit_cast<std::array<std::byte, sizeof(value)>>(value);
            if (bigEndian)
                std::reverse(raw.begin(), raw.end());
            std::copy(raw.begin(), raw.end(), out.begin() + std::ptrdiff_t(offset));
        };
        put(0, int32_t(348));
        for (int i = 0; i < 8; ++i)
            put(40 + 2 * i, dim[i]);
        put(70, datatype);
        put(72, bitpix);
        for (int i = 0; i < 8; ++i)
            put(76 + 4 * i, pixdim[i]);
        put(108, voxOffset);
        put(112, slope);
        put(116, inter);
        put(252, qformCode);
        put(254, sformCode);
        for (int row = 0; row < 3; ++row)
            for (int column = 0; column < 4; ++column)
                put(280 + 16 * row + 4 * column, srow[row][column]);
        const char magic[4] = {'n', '+', '1', '\0'};
        std::memcpy(out.data() + 344, magic, 4);
        return out;
    }
};

std::vector<std::byte> concat(std::vector<std::byte> a, const std::vector<std::byte>& b)
{
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

} // namespace

TEST_CASE("NIfTI-1 files of the engine's four types read back sample for sample, either byte order", "[nifti]")
{
    for (ScalarType type : allTypes) {
        for (bool bigEndian : {false, true}) {
            Volume expected = makeTestVolume(type);
            Nifti1Header header;
            header.datatype = niftiCode(type);
            header.bitpix = int16_t(8 * scalarSize(type));
            header.bigEndian = bigEndian;
            std::string name = std::string(scalarName(type)) + (bigEndian ? "_big.nii" : "_little.nii");
            fs::path path = tmpPath(name);
            writeFile(path, "", concat(header.bytes(), encodeSamples(expected, bigEndian)));
            INFO(name);
            Volume read = readVolumeFile(path);
            requireSameVolume(read, expected); // sform axis-aligned: spacing and origin from it
            CHECK_FALSE(read.indexToWorld.has_value());
            CHECK(read.notes.empty());
        }
    }
}

TEST_CASE("NIfTI .nii.gz and .hdr/.img pairs read the same samples", "[nifti]")
{
    Volume expected = makeTestVolume(ScalarType::Int16);
    Nifti1Header header;
    std::vector<std::byte> file = concat(header.bytes(), encodeSamples(expected, false));

    fs::path gz = tmpPath("compressed.nii.gz");
    writeFile(gz, "", compress(file, true));
    requireSameVolume(readVolumeFile(gz), expected);

    Nifti1Header pairHeader;
    pairHeader.voxOffset = 0;
    std::vector<std::byte> hdr = pairHeader.bytes();
    hdr.resize(348);
    hdr[345] = std::byte('i'); // "ni1": the data are in the .img
    fs::path hdrPath = tmpPath("pair.hdr");
    fs::path imgPath = tmpPath("pair.img");
    writeFile(hdrPath, "", hdr);
    writeFile(imgPath, "", encodeSamples(expected, false));
    requireSameVolume(readVolumeFile(hdrPath), expected);
    requireSameVolume(readVolumeFile(imgPath), expected);

    // A .nii and a .nii.gz of the same stem side by side: each reads its own data.
    fs::path plain = tmpPath("compressed.nii");
    Volume other = makeTestVolume(ScalarType::Int16, {3, 3, 3});
    Nifti1Header otherHeader;
    otherHeader.dim = {3, 3, 3, 3, 1, 1, 1, 1};
    writeFile(plain, "", concat(otherHeader.bytes(), encodeSamples(other, false)));
    requireSameVolume(readVolumeFile(gz), expected);
}

TEST_CASE("NIfTI oblique and flipped grids keep their index-to-world matrix", "[nifti]")
{
    Volume samples = makeTestVolume(ScalarType::Float32);
    Nifti1Header header;
    header.datatype = dtFloat32;
    header.bitpix = 32;
    // The first two axes swapped and the first reversed: a rotation by 90° with steps 0.5 and 1.25.
    header.srow = {{{0, -1.25f, 0, 7}, {0.5f, 0, 0, -2}, {0, 0, 2, 1.5f}}};
    fs::path path = tmpPath("oblique.nii");
    writeFile(path, "", concat(header.bytes(), encodeSamples(samples, false)));
    Volume read = readVolumeFile(path);
    REQUIRE(read.indexToWorld.has_value());
    for (int row = 0; row < 3; ++row)
        for (int column = 0; column < 4; ++column)
            CHECK((*read.indexToWorld)[row][column] == double(header.srow[row][column]));
    CHECK((*read.indexToWorld)[3] == std::array<double, 4>{0, 0, 0, 1});
    CHECK(read.spacing == std::array<double, 3>{0.5, 1.25, 2.0}); // pixdim
    CHECK(read.origin == std::array<double, 3>{7, -2, 1.5});
    CHECK(read.data == samples.data);
    CHECK(worldMatrix(read) == *read.indexToWorld);

    // Neither sform nor qform: pixdim alone (NIfTI "method 1"), axis-aligned at the origin.
    header.sformCode = 0;
    fs::path plain = tmpPath("method1.nii");
    writeFile(plain, "", concat(header.bytes(), encodeSamples(samples, false)));
    Volume method1 = readVolumeFile(plain);
    CHECK_FALSE(method1.indexToWorld.has_value());
    CHECK(method1.spacing == std::array<double, 3>{0.5, 1.25, 2.0});
    CHECK(method1.origin == std::array<double, 3>{0, 0, 0});
}

TEST_CASE("NIfTI scaling and types the engine lacks become float32 with a note", "[nifti]")
{
    // int32 samples -7, 0, 3, ... scaled by 0.5 and shifted by -1.
    Nifti1Header header;
    header.dim = {3, 2, 2, 2, 1, 1, 1, 1};
    header.datatype = dtInt32;
    header.bitpix = 32;
    header.slope = 0.5f;
    header.inter = -1.0f;
    std::vector<std::byte> data;
    std::vector<int32_t> stored = {-7, 0, 3, 100000, -100000, 1, 2, 2147483647};
    for (int32_t value : stored)
        for (std::byte b : std::bit_cast<std::array<std::byte, 4>>(value))
            data.push_back(b);
    fs::path path = tmpPath("scaled_int32.nii");
    writeFile(path, "", concat(header.bytes(), data));
    Volume read = readVolumeFile(path);
    REQUIRE(read.type == ScalarType::Float32);
    for (size_t i = 0; i < stored.size(); ++i)
        CHECK(read.valueAt(i) == float(double(stored[i]) * 0.5 - 1.0));
    REQUIRE(read.notes.size() == 1);
    CHECK_THAT(read.notes[0], Contains("scl_slope 0.5") && Contains("int32"));

    // int8 widens to int16 exactly, unscaled.
    header.datatype = dtInt8;
    header.bitpix = 8;
    header.slope = 1.0f;
    header.inter = 0.0f;
    std::vector<std::byte> bytes = {std::byte(0x80), std::byte(0xff), std::byte(0), std::byte(0x7f),
                                    std::byte(5),    std::byte(0xfb), std::byte(1), std::byte(2)};
    fs::path int8 = tmpPath("int8.nii");
    writeFile(int8, "", concat(header.bytes(), bytes));
    Volume widened = readVolumeFile(int8);
    REQUIRE(widened.type == ScalarType::Int16);
    CHECK(widened.valueAt(0) == -128.0f);
    CHECK(widened.valueAt(1) == -1.0f);
    CHECK(widened.valueAt(3) == 127.0f);
    CHECK(widened.valueAt(5) == -5.0f);

    // A non-finite scl_inter: libnifti reads it as 0 (nibabel refuses such a file).
    header.datatype = dtInt8;
    header.slope = 2.0f;
    header.inter = std::numeric_limits<float>::quiet_NaN();
    fs::path nanInter = tmpPath("nan_inter.nii");
    writeFile(nanInter, "", concat(header.bytes(), bytes));
    Volume doubled = readVolumeFile(nanInter);
    CHECK(doubled.valueAt(0) == -256.0f);
    CHECK(doubled.valueAt(3) == 254.0f);

    // float64 to float32.
    header.slope = 0.0f;
    header.inter = 0.0f;
    header.datatype = dtFloat64;
    header.bitpix = 64;
    std::vector<std::byte> doubles;
    for (int i = 0; i < 8; ++i)
        for (std::byte b : std::bit_cast<std::array<std::byte, 8>>(0.1 * i - 0.3))
            doubles.push_back(b);
    fs::path float64 = tmpPath("float64.nii");
    writeFile(float64, "", concat(header.bytes(), doubles));
    Volume narrowed = readVolumeFile(float64);
    CHECK(narrowed.valueAt(7) == float(0.1 * 7 - 0.3));
    CHECK_THAT(narrowed.notes.at(0), Contains("float64") && Contains("float32"));
}

TEST_CASE("bad NIfTI files are refused with an Error naming the file", "[nifti][volume]")
{
    Volume sample = makeTestVolume(ScalarType::Int16);
    std::vector<std::byte> samples = encodeSamples(sample, false);

    Nifti1Header header;
    fs::path truncated = tmpPath("truncated.nii");
    writeFile(truncated, "", concat(header.bytes(), std::vector<std::byte>(samples.begin(), samples.end() - 2)));
    requireReadError(truncated, "truncated");

    Nifti1Header liar; // dim says 4096^3: refused from the file size, before allocating 128 GiB
    liar.dim = {3, 4096, 4096, 4096, 1, 1, 1, 1};
    fs::path lying = tmpPath("lying_dims.nii");
    writeFile(lying, "", concat(liar.bytes(), samples));
    requireReadError(lying, "truncated");

    fs::path lyingGz = tmpPath("lying_dims.nii.gz");
    writeFile(lyingGz, "", compress(concat(liar.bytes(), samples), true));
    requireReadError(lyingGz, "cannot hold");

    Nifti1Header far;
    far.voxOffset = 1e6f;
    fs::path beyond = tmpPath("vox_offset_beyond.nii");
    writeFile(beyond, "", concat(far.bytes(), samples));
    requireReadError(beyond, "truncated");

    Nifti1Header complex;
    complex.datatype = dtComplex64;
    complex.bitpix = 64;
    fs::path complexPath = tmpPath("complex.nii");
    writeFile(complexPath, "", concat(complex.bytes(), std::vector<std::byte>(60 * 8)));
    requireReadError(complexPath, "complex64");

    Nifti1Header fourD;
    fourD.dim = {4, 5, 4, 3, 2, 1, 1, 1};
    fs::path series = tmpPath("series.nii");
    writeFile(series, "", concat(fourD.bytes(), concat(samples, samples)));
    requireReadError(series, "4D");

    Nifti1Header flat;
    flat.dim = {2, 5, 12, 1, 1, 1, 1, 1};
    fs::path image = tmpPath("image.nii");
    writeFile(image, "", concat(flat.bytes(), samples));
    requireReadError(image, "3D");

    // libnifti reads a size of 0 as 1 (nifti2_io.c, nifti_convert_n1hdr2nim): the data still have to fit.
    Nifti1Header zero;
    zero.dim = {3, 5, 0, 3, 1, 1, 1, 1};
    fs::path empty = tmpPath("zero_dim.nii");
    writeFile(empty, "", zero.bytes());
    requireReadError(empty, "truncated");

    Nifti1Header badMatrix;
    badMatrix.srow[1][1] = std::numeric_limits<float>::infinity();
    fs::path infinite = tmpPath("infinite_sform.nii");
    writeFile(infinite, "", concat(badMatrix.bytes(), samples));
    requireReadError(infinite, "sform");

    fs::path notNifti = tmpPath("not_nifti.nii");
    writeFile(notNifti, "P5\n5 4\n255\n", samples);
    requireReadError(notNifti, "libnifti cannot read it");

    fs::path corrupt = tmpPath("corrupt.nii.gz");
    std::vector<std::byte> gz = compress(concat(header.bytes(), samples), true);
    for (size_t i = 20; i < gz.size(); i += 3)
        gz[i] ^= std::byte{0x5a};
    writeFile(corrupt, "", gz);
    std::string message = errorMessage([&] { readVolumeFile(corrupt); });
    CHECK_THAT(message, Contains("corrupt.nii.gz"));

    Nifti1Header pair;
    pair.voxOffset = 0;
    std::vector<std::byte> hdr = pair.bytes();
    hdr.resize(348);
    hdr[345] = std::byte('i');
    fs::path orphan = tmpPath("orphan.hdr");
    writeFile(orphan, "", hdr);
    requireReadError(orphan, "orphan.hdr");

    fs::path shortImg = tmpPath("short_pair.hdr");
    writeFile(shortImg, "", hdr);
    writeFile(tmpPath("short_pair.img"), "", std::vector<std::byte>(samples.begin(), samples.begin() + 7));
    message = errorMessage([&] { readVolumeFile(shortImg); });
    CHECK_THAT(message, Contains("short_pair.img") && Contains("short_pair.hdr") && Contains("truncated"));
}

TEST_CASE("every prefix of a NIfTI file is an Error or the full volume, never a crash", "[nifti][volume]")
{
    Volume expected = makeTestVolume(ScalarType::Float32, {4, 3, 2});
    Nifti1Header header;
    header.dim = {3, 4, 3, 2, 1, 1, 1, 1};
    header.datatype = dtFloat32;
    header.bitpix = 32;
    header.bigEndian = true;
    std::vector<std::byte> file = concat(header.bytes(), encodeSamples(expected, true));
    struct Whole {
        std::string name;
        std::vector<std::byte> bytes;
    };
    for (const Whole& whole : {Whole{"prefix.nii", file}, Whole{"prefix.nii.gz", compress(file, true)}}) {
        fs::path path = tmpPath(whole.name);
        uint64_t errors = 0;
        for (size_t length = 0; length < whole.bytes.size(); ++length) {
            writeFile(path, "", std::vector<std::byte>(whole.bytes.begin(), whole.bytes.begin() + length));
            std::optional<Volume> read;
            try {
                read = readVolumeFile(path);
            } catch (const Error& error) {
                ++errors;
                CHECK_THAT(error.what(), Contains(whole.name));
            }
            if (read)
                CHECK(read->data == expected.data);
        }
        INFO(whole.name);
        // Only a gzip file cut in its last bytes (the 8-byte CRC and size trailer, the end of the
        // last deflate block) still holds all the data, checked above; the other readers' bound.
        CHECK(errors >= whole.bytes.size() - 12);
        writeFile(path, "", whole.bytes);
        CHECK(readVolumeFile(path).data == expected.data);
    }
}
