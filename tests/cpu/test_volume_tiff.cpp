// TIFF stacks built byte by byte from the TIFF 6.0 baseline layout (not
// through libtiff, which the reader uses), read back; and bad TIFF files
// refused with an Error naming the file, never a crash. Agreement with
// tifffile on the files it writes is tests/vtk/test_tiff_vs_tifffile.py.
#include "volume/readers.h"
#include "volume_test_support.h"

using namespace isoscope;
using namespace volumetest;
using Catch::Matchers::Contains;

namespace {

// One uncompressed strip per page, little-endian ("II"), IFDs chained.
struct TiffPage {
    uint32_t width = 5, height = 4;
    uint16_t bits = 16, sampleFormat = 1, samplesPerPixel = 1;
    std::vector<std::byte> pixels;
    std::optional<uint32_t> claimedWidth; // a lying ImageWidth
};

template <typename T>
void put(std::vector<std::byte>& out, T value)
{
    for (size_t i = 0; i < sizeof(T); ++i)
        out.push_back(std::byte((uint64_t(value) >> (8 * i)) & 0xff));
}

std::vector<std::byte> buildTiff(const std::vector<TiffPage>& pages)
{
    constexpr uint16_t shortType = 3, longType = 4;
    std::vector<std::byte> out = {std::byte('I'), std::byte('I')};
    put<uint16_t>(out, 42);
    put<uint32_t>(out, 8);
    for (size_t p = 0; p < pages.size(); ++p) {
        const TiffPage& page = pages[p];
        constexpr uint16_t entries = 10;
        uint32_t ifdBytes = 2 + 12 * entries + 4;
        uint32_t pixelsAt = uint32_t(out.size()) + ifdBytes;
        uint32_t next = p + 1 < pages.size() ? pixelsAt + uint32_t(page.pixels.size()) : 0;
        put<uint16_t>(out, entries);
        auto entry = [&](uint16_t tag, uint16_t type, uint32_t value) {
            put<uint16_t>(out, tag);
            put<uint16_t>(out, type);
            put<uint32_t>(out, 1);
            put<uint32_t>(out, value); // a SHORT sits in the low bytes, as little-endian TIFF stores it
        };
        entry(256, longType, page.claimedWidth.value_or(page.width));
        entry(257, longType, page.height);
        entry(258, shortType, page.bits);
        entry(259, shortType, 1); // no compression
        entry(262, shortType, 1); // BlackIsZero
        entry(273, longType, pixelsAt);
        entry(277, shortType, page.samplesPerPixel);
        entry(278, longType, page.height);
        entry(279, longType, uint32_t(page.pixels.size()));
        entry(339, shortType, page.sampleFormat);
        put<uint32_t>(out, next);
        out.insert(out.end(), page.pixels.begin(), page.pixels.end());
    }
    return out;
}

uint16_t sampleFormatOf(ScalarType type)
{
    return type == ScalarType::Float32 ? 3 : type == ScalarType::Int16 ? 2 : 1;
}

// The volume's z slices as pages.
std::vector<TiffPage> pagesOf(const Volume& volume)
{
    std::vector<TiffPage> pages;
    size_t sliceBytes = size_t(volume.dims[0]) * volume.dims[1] * scalarSize(volume.type);
    for (uint32_t z = 0; z < volume.dims[2]; ++z) {
        TiffPage page;
        page.width = volume.dims[0];
        page.height = volume.dims[1];
        page.bits = uint16_t(8 * scalarSize(volume.type));
        page.sampleFormat = sampleFormatOf(volume.type);
        page.pixels.assign(volume.data.begin() + std::ptrdiff_t(z * sliceBytes),
                           volume.data.begin() + std::ptrdiff_t((z + 1) * sliceBytes));
        pages.push_back(page);
    }
    return pages;
}

} // namespace

TEST_CASE("multi-page TIFF files of the engine's four types read back slice by slice", "[tiff]")
{
    for (ScalarType type : allTypes) {
        Volume expected = makeTestVolume(type);
        fs::path path = tmpPath(std::string(scalarName(type)) + ".tif");
        writeFile(path, "", buildTiff(pagesOf(expected)));
        INFO(path.filename().string());
        Volume read = readVolumeFile(path);
        CHECK(read.dims == expected.dims);
        CHECK(read.type == type);
        CHECK(read.data == expected.data);
        CHECK(read.spacing == std::array<double, 3>{1, 1, 1});
        CHECK_THAT(read.notes.at(0), Contains("--spacing"));

        RawOptions options;
        options.spacing = expected.spacing;
        CHECK(readVolumeFile(path, options).spacing == expected.spacing);
    }
}

TEST_CASE("a folder of single-page TIFF slices reads in natural name order", "[tiff]")
{
    Volume expected = makeTestVolume(ScalarType::UInt16, {5, 4, 11});
    fs::path folder = tmpPath("slices");
    fs::create_directories(folder);
    std::vector<TiffPage> pages = pagesOf(expected);
    for (size_t z = 0; z < pages.size(); ++z)
        writeFile(folder / ("slice" + std::to_string(z + 1) + ".TIF"), "", buildTiff({pages[z]}));
    Volume read = loadVolume(folder.string());
    CHECK(read.dims == expected.dims);
    CHECK(read.data == expected.data);
    Volume globbed = loadVolume((folder / "slice*.TIF").string());
    CHECK(globbed.data == expected.data);

    fs::path empty = tmpPath("no_slices");
    fs::create_directories(empty);
    std::string message = errorMessage([&] { loadVolume(empty.string()); });
    CHECK_THAT(message, Contains("no_slices") && Contains(".tif/.tiff slices nor DICOM"));
    message = errorMessage([&] { loadVolume((empty / "*.tif").string()); });
    CHECK_THAT(message, Contains("matches no files"));
}

TEST_CASE("bad TIFF files are refused with an Error naming the file", "[tiff][volume]")
{
    Volume sample = makeTestVolume(ScalarType::Int16);
    std::vector<TiffPage> pages = pagesOf(sample);

    std::vector<std::byte> whole = buildTiff(pages);
    fs::path truncated = tmpPath("truncated.tif");
    writeFile(truncated, "", std::vector<std::byte>(whole.begin(), whole.end() - 7));
    requireReadError(truncated, "truncated.tif");

    std::vector<TiffPage> liar = pages; // 100000 x 4 claimed over 40 bytes: refused before allocating
    liar[0].claimedWidth = 100000;
    fs::path lying = tmpPath("lying_width.tif");
    writeFile(lying, "", buildTiff(liar));
    requireReadError(lying, "too few");

    std::vector<TiffPage> rgb = pages;
    rgb[0].samplesPerPixel = 3;
    fs::path rgbPath = tmpPath("rgb.tif");
    writeFile(rgbPath, "", buildTiff(rgb));
    requireReadError(rgbPath, "samples per pixel");

    std::vector<TiffPage> complex = pages;
    for (TiffPage& page : complex)
        page.sampleFormat = 6; // complex float
    fs::path complexPath = tmpPath("complex.tif");
    writeFile(complexPath, "", buildTiff(complex));
    requireReadError(complexPath, "isoscope reads 8/16-bit integer");

    std::vector<TiffPage> mixed = pages;
    mixed[2].sampleFormat = 1; // uint16 after int16 pages
    fs::path mixedPath = tmpPath("mixed.tif");
    writeFile(mixedPath, "", buildTiff(mixed));
    requireReadError(mixedPath, "must match");

    fs::path text = tmpPath("not_tiff.tif");
    writeFile(text, "P5\n5 4\n255\n");
    requireReadError(text, "libtiff cannot open");
}

TEST_CASE("every prefix of a TIFF file is an Error or the full volume, never a crash", "[tiff][volume]")
{
    Volume expected = makeTestVolume(ScalarType::Float32, {4, 3, 2});
    std::vector<std::byte> bytes = buildTiff(pagesOf(expected));
    fs::path path = tmpPath("prefix.tif");
    uint64_t errors = 0;
    for (size_t length = 0; length < bytes.size(); ++length) {
        writeFile(path, "", std::vector<std::byte>(bytes.begin(), bytes.begin() + std::ptrdiff_t(length)));
        try {
            readVolumeFile(path);
        } catch (const Error& error) {
            ++errors;
            CHECK_THAT(error.what(), Contains("prefix.tif"));
        }
    }
    CHECK(errors == bytes.size());
    writeFile(path, "", bytes);
    CHECK(readVolumeFile(path).data == expected.data);
}
