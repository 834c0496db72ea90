// DICOM series built byte by byte (Part 10 files, Explicit VR Little Endian,
// from PS3.5 and PS3.10; not through GDCM, which the reader uses), read back;
// and bad DICOM files refused with an Error naming the file, never a crash.
// Agreement with pydicom on the series it writes is
// tests/vtk/test_dicom_vs_pydicom.py.
#include "volume/readers.h"
#include "volume_test_support.h"

using namespace isoscope;
using namespace volumetest;
using Catch::Matchers::Contains;

namespace {

struct DicomSlice {
    std::string seriesUid = "1.2.3.4.5";
    std::array<double, 3> position{-3.0, 0.125, 10.0};
    uint16_t rows = 4, columns = 5;
    std::vector<std::byte> pixels; // int16, little-endian
    std::string transferSyntax = "1.2.840.10008.1.2.1"; // explicit VR little endian: the file's encoding
};

void putBytes(std::vector<std::byte>& out, uint64_t value, int count)
{
    for (int i = 0; i < count; ++i)
        out.push_back(std::byte((value >> (8 * i)) & 0xff));
}

// One element, explicit VR little endian; text values padded to even length.
void element(std::vector<std::byte>& out, uint16_t group, uint16_t tag, const char vr[2], std::vector<std::byte> value)
{
    if (value.size() % 2)
        value.push_back(std::string_view(vr) == "UI" ? std::byte(0) : std::byte(' '));
    putBytes(out, group, 2);
    putBytes(out, tag, 2);
    out.push_back(std::byte(vr[0]));
    out.push_back(std::byte(vr[1]));
    if (std::string_view(vr, 2) == "OW" || std::string_view(vr, 2) == "OB") {
        putBytes(out, 0, 2);
        putBytes(out, value.size(), 4);
    } else {
        putBytes(out, value.size(), 2);
    }
    out.insert(out.end(), value.begin(), value.end());
}

std::vector<std::byte> text(const std::string& value)
{
    std::vector<std::byte> bytes;
    for (char c : value)
        bytes.push_back(std::byte(c));
    return bytes;
}

std::vector<std::byte> us(uint16_t value)
{
    std::vector<std::byte> bytes;
    putBytes(bytes, value, 2);
    return bytes;
}

std::vector<std::byte> buildDicom(const DicomSlice& slice, const std::string& instanceUid)
{
    const std::string ctImage = "1.2.840.10008.5.1.4.1.1.2";
    std::vector<std::byte> meta;
    element(meta, 0x0002, 0x0002, "UI", text(ctImage));
    element(meta, 0x0002, 0x0003, "UI", text(instanceUid));
    element(meta, 0x0002, 0x0010, "UI", text(slice.transferSyntax));
    std::vector<std::byte> out(128);
    for (char c : std::string("DICM"))
        out.push_back(std::byte(c));
    std::vector<std::byte> length;
    putBytes(length, meta.size(), 4);
    element(out, 0x0002, 0x0000, "UL", length);
    out.insert(out.end(), meta.begin(), meta.end());

    char position[96];
    std::snprintf(position, sizeof(position), "%g\\%g\\%g", slice.position[0], slice.position[1], slice.position[2]);
    element(out, 0x0008, 0x0016, "UI", text(ctImage));
    element(out, 0x0008, 0x0018, "UI", text(instanceUid));
    element(out, 0x0008, 0x0060, "CS", text("CT"));
    // A sequence and an item of undefined length (PS3.5 7.5.2), so that cuts inside them are tried too.
    putBytes(out, 0x0008, 2);
    putBytes(out, 0x1140, 2);
    for (char c : std::string("SQ\0\0", 4))
        out.push_back(std::byte(c));
    putBytes(out, 0xffffffff, 4);
    putBytes(out, 0xfffe, 2), putBytes(out, 0xe000, 2), putBytes(out, 0xffffffff, 4); // item
    element(out, 0x0008, 0x1155, "UI", text("1.2.3.4.6"));
    putBytes(out, 0xfffe, 2), putBytes(out, 0xe00d, 2), putBytes(out, 0, 4); // item end
    putBytes(out, 0xfffe, 2), putBytes(out, 0xe0dd, 2), putBytes(out, 0, 4); // sequence end
    element(out, 0x0020, 0x000e, "UI", text(slice.seriesUid));
    element(out, 0x0020, 0x0032, "DS", text(position));
    element(out, 0x0020, 0x0037, "DS", text("1\\0\\0\\0\\1\\0"));
    element(out, 0x0028, 0x0002, "US", us(1));
    element(out, 0x0028, 0x0004, "CS", text("MONOCHROME2"));
    element(out, 0x0028, 0x0010, "US", us(slice.rows));
    element(out, 0x0028, 0x0011, "US", us(slice.columns));
    element(out, 0x0028, 0x0030, "DS", text("1.25\\0.5")); // row spacing, column spacing
    element(out, 0x0028, 0x0100, "US", us(16));
    element(out, 0x0028, 0x0101, "US", us(16));
    element(out, 0x0028, 0x0102, "US", us(15));
    element(out, 0x0028, 0x0103, "US", us(1));
    element(out, 0x7fe0, 0x0010, "OW", slice.pixels);
    return out;
}

// The volume's z slices as files of one series, named so that name order is not z order.
fs::path writeSeries(const std::string& name, const Volume& volume)
{
    fs::path folder = tmpPath(name);
    fs::create_directories(folder);
    size_t sliceBytes = size_t(volume.dims[0]) * volume.dims[1] * 2;
    for (uint32_t z = 0; z < volume.dims[2]; ++z) {
        DicomSlice slice;
        slice.position[2] = 10.0 + 2.0 * z;
        slice.pixels.assign(volume.data.begin() + std::ptrdiff_t(z * sliceBytes),
                            volume.data.begin() + std::ptrdiff_t((z + 1) * sliceBytes));
        std::string uid = "1.2.3.4.5." + std::to_string(z + 1);
        writeFile(folder / ("IM" + std::to_string((z * 7 + 3) % 10) + "_" + std::to_string(z)), "",
                  buildDicom(slice, uid));
    }
    return folder;
}

} // namespace

TEST_CASE("a DICOM series reads back in position order with spacing from its tags", "[dicom]")
{
    Volume expected = makeTestVolume(ScalarType::Int16);
    fs::path folder = writeSeries("series", expected);
    for (const fs::path& where : {folder, folder / "IM3_0", folder / "IM7_2"}) {
        INFO(where.filename().string());
        Volume read = loadVolume(where.string());
        CHECK(read.dims == expected.dims);
        CHECK(read.data == expected.data);
        CHECK(read.spacing == std::array<double, 3>{0.5, 1.25, 2.0});
        CHECK(read.origin == std::array<double, 3>{-3.0, 0.125, 10.0});
        CHECK_FALSE(read.indexToWorld.has_value());
    }
}

TEST_CASE("bad DICOM files and series are refused with an Error naming the file", "[dicom][volume]")
{
    Volume sample = makeTestVolume(ScalarType::Int16);

    fs::path truncatedFolder = writeSeries("truncated_series", sample);
    fs::path cut = truncatedFolder / "IM7_2";
    fs::resize_file(cut, fs::file_size(cut) - 9);
    CHECK_THAT(errorMessage([&] { loadVolume(truncatedFolder.string()); }), Contains("IM7_2"));

    fs::path lyingFolder = tmpPath("lying_rows");
    fs::create_directories(lyingFolder);
    DicomSlice liar;
    liar.rows = 60000;
    liar.columns = 60000;
    liar.pixels.assign(40, std::byte(1));
    writeFile(lyingFolder / "liar.dcm", "", buildDicom(liar, "1.2.9"));
    CHECK_THAT(errorMessage([&] { loadVolume((lyingFolder / "liar.dcm").string()); }), Contains("liar.dcm"));

    fs::path twice = tmpPath("same_position");
    fs::create_directories(twice);
    DicomSlice slice;
    slice.pixels.assign(40, std::byte(0));
    writeFile(twice / "a.dcm", "", buildDicom(slice, "1.2.10"));
    writeFile(twice / "b.dcm", "", buildDicom(slice, "1.2.11"));
    CHECK_THAT(errorMessage([&] { loadVolume(twice.string()); }), Contains("same position"));

    fs::path two = tmpPath("two_series");
    fs::create_directories(two);
    DicomSlice other = slice;
    other.seriesUid = "9.8.7";
    writeFile(two / "a.dcm", "", buildDicom(slice, "1.2.12"));
    writeFile(two / "b.dcm", "", buildDicom(other, "1.2.13"));
    std::string message = errorMessage([&] { loadVolume(two.string()); });
    CHECK_THAT(message, Contains("two_series") && Contains("1.2.3.4.5") && Contains("9.8.7") && Contains("--series"));
    RawOptions pick;
    pick.dicomSeries = "9.8.7";
    CHECK(loadVolume(two.string(), pick).dims == std::array<uint32_t, 3>{5, 4, 1});
    pick.dicomSeries = "1.1.1";
    CHECK_THAT(errorMessage([&] { loadVolume(two.string(), pick); }), Contains("no DICOM series 1.1.1"));

    fs::path nothing = tmpPath("no_dicom");
    fs::create_directories(nothing);
    writeFile(nothing / "readme.txt", "not DICOM");
    CHECK_THAT(errorMessage([&] { loadVolume(nothing.string()); }), Contains("no_dicom") && Contains("nor DICOM files"));

    fs::path fake = tmpPath("fake.dcm");
    writeFile(fake, "not DICOM at all");
    CHECK_THAT(errorMessage([&] { readVolumeFile(fake); }), Contains("fake.dcm"));
}

TEST_CASE("every prefix of a DICOM file is an Error or the full slice, never a crash", "[dicom][volume]")
{
    Volume expected = makeTestVolume(ScalarType::Int16, {4, 3, 1});
    DicomSlice slice;
    slice.rows = 3;
    slice.columns = 4;
    slice.pixels = expected.data;
    std::vector<std::byte> bytes = buildDicom(slice, "1.2.99");
    fs::path folder = tmpPath("prefix_dicom");
    fs::create_directories(folder);
    fs::path path = folder / "prefix.dcm";
    uint64_t errors = 0;
    for (size_t length = 0; length < bytes.size(); ++length) {
        writeFile(path, "", std::vector<std::byte>(bytes.begin(), bytes.begin() + std::ptrdiff_t(length)));
        std::optional<Volume> read;
        try {
            read = readVolumeFile(path);
        } catch (const Error& error) {
            ++errors;
            CHECK_THAT(error.what(), Contains("prefix.dcm"));
        }
        if (read) // GDCM reads what is there: a cut may only fall where nothing the volume needs is lost
            CHECK(read->data == expected.data);
    }
    CHECK(errors >= bytes.size() - 1);
    writeFile(path, "", bytes);
    CHECK(readVolumeFile(path).data == expected.data);
}

// GDCM aborts on an explicit-VR element of undefined length unless it is SQ,
// UN or pixel data (found by fuzz: dicom); the reader refuses it first.
TEST_CASE("an explicit-VR element of undefined length that is not SQ or UN is an Error, not GDCM's abort",
          "[dicom][volume]")
{
    DicomSlice slice;
    slice.pixels.assign(40, std::byte(0));
    std::vector<std::byte> bytes = buildDicom(slice, "1.2.98");
    // The sequence (0008,1140) SQ of undefined length becomes a private (0009,1001) OW of undefined length.
    const std::vector<std::byte> sequence = {std::byte(0x08), std::byte(0x00), std::byte(0x40), std::byte(0x11),
                                             std::byte('S'),  std::byte('Q')};
    auto at = std::search(bytes.begin(), bytes.end(), sequence.begin(), sequence.end());
    REQUIRE(at != bytes.end());
    for (std::byte b : {std::byte(0x09), std::byte(0x00), std::byte(0x01), std::byte(0x10), std::byte('O'),
                        std::byte('W')})
        *at++ = b;
    fs::path folder = tmpPath("undefined_ow");
    fs::create_directories(folder);
    writeFile(folder / "ow.dcm", "", bytes);
    std::string message = errorMessage([&] { readVolumeFile(folder / "ow.dcm"); });
    CHECK_THAT(message, Contains("ow.dcm") && Contains("(0009,1001)") && Contains("undefined length"));
    CHECK_THAT(errorMessage([&] { loadVolume(folder.string()); }), Contains("ow.dcm"));
}

// GDCM's codec asserts on Bits Stored below Bits Allocated but for 16-bit
// samples, and on a Bits Allocated of 24 (found by fuzz: dicom).
TEST_CASE("Bits Allocated and Bits Stored that GDCM cannot decode are an Error, not GDCM's abort", "[dicom][volume]")
{
    auto setUs = [](std::vector<std::byte>& bytes, uint16_t tag, uint16_t value) {
        std::vector<std::byte> key;
        putBytes(key, 0x0028, 2);
        putBytes(key, tag, 2);
        key.push_back(std::byte('U'));
        key.push_back(std::byte('S'));
        auto at = std::search(bytes.begin(), bytes.end(), key.begin(), key.end());
        REQUIRE(at != bytes.end());
        at[8] = std::byte(value & 0xff), at[9] = std::byte(value >> 8);
    };
    // One folder a file: a file is read as part of its folder's series.
    auto folderFor = [](const std::string& name) {
        fs::path folder = tmpPath("bits_stored") / name;
        fs::create_directories(folder);
        return folder;
    };
    struct Bits {
        uint16_t allocated, stored;
        const char* says;
    };
    for (Bits bits : {Bits{24, 16, "Bits Allocated (0028,0100) 24"}, Bits{32, 16, "Bits Stored (0028,0101) 16"},
                      Bits{8, 7, "Bits Stored (0028,0101) 7"}, Bits{64, 32, "Bits Stored (0028,0101) 32"}}) {
        DicomSlice slice;
        slice.pixels.assign(size_t(slice.rows) * slice.columns * bits.allocated / 8, std::byte(0));
        std::vector<std::byte> bytes = buildDicom(slice, "1.2.97");
        setUs(bytes, 0x0100, bits.allocated);
        setUs(bytes, 0x0101, bits.stored);
        setUs(bytes, 0x0102, uint16_t(bits.stored - 1));
        std::string name = "bits_" + std::to_string(bits.allocated) + "_" + std::to_string(bits.stored);
        fs::path path = folderFor(name) / (name + ".dcm");
        writeFile(path, "", bytes);
        CHECK_THAT(errorMessage([&] { readVolumeFile(path); }), Contains(path.filename().string()) && Contains(bits.says));
    }
    // 12 bits stored of 16 is the common CT layout, and reads.
    DicomSlice slice;
    slice.pixels.assign(size_t(slice.rows) * slice.columns * 2, std::byte(1));
    std::vector<std::byte> bytes = buildDicom(slice, "1.2.96");
    setUs(bytes, 0x0101, 12);
    setUs(bytes, 0x0102, 11);
    fs::path path = folderFor("bits_16_12") / "bits_16_12.dcm";
    writeFile(path, "", bytes);
    CHECK(readVolumeFile(path).dims == std::array<uint32_t, 3>{5, 4, 1});
}

// GDCM asserts on a sequence delimiter among a data set's elements (found by fuzz: dicom).
TEST_CASE("an item or delimiter tag outside a sequence is an Error, not GDCM's abort", "[dicom][volume]")
{
    DicomSlice slice;
    slice.pixels.assign(40, std::byte(0));
    std::vector<std::byte> bytes = buildDicom(slice, "1.2.95");
    // A sequence delimiter (fffe,e0dd) of length 0 put before the Series Instance UID.
    std::vector<std::byte> series;
    putBytes(series, 0x0020, 2);
    putBytes(series, 0x000e, 2);
    series.push_back(std::byte('U'));
    series.push_back(std::byte('I'));
    auto at = std::search(bytes.begin(), bytes.end(), series.begin(), series.end());
    REQUIRE(at != bytes.end());
    std::vector<std::byte> delimiter;
    putBytes(delimiter, 0xfffe, 2), putBytes(delimiter, 0xe0dd, 2), putBytes(delimiter, 0, 4);
    bytes.insert(at, delimiter.begin(), delimiter.end());
    fs::path folder = tmpPath("stray_delimiter");
    fs::create_directories(folder);
    writeFile(folder / "stray.dcm", "", bytes);
    CHECK_THAT(errorMessage([&] { loadVolume(folder.string()); }),
               Contains("stray.dcm") && Contains("(fffe,e0dd)") && Contains("outside a sequence"));
}

// GDCM reads the Transfer Syntax UID up to its first NUL: a check that read
// past it walked the file in another byte order than GDCM, which then
// asserted (gdcmItem.h; found by fuzz: dicom).
TEST_CASE("a Transfer Syntax UID is read up to its NUL, and one that is not a UID is an Error", "[dicom][volume]")
{
    struct Case {
        std::string syntax, says;
    };
    int index = 0;
    for (const Case& c : {Case{std::string("1.2.840.10008.1.2.2\0XY", 22), "big.dcm"},
                          Case{"1.2.840.10008.1.2.1X", "that is not a UID"},
                          Case{std::string("\0.2.840.10008.1.2.1", 20), "that is not a UID"}}) {
        DicomSlice slice;
        slice.pixels.assign(40, std::byte(0));
        slice.transferSyntax = c.syntax;
        fs::path folder = tmpPath("transfer_syntax_" + std::to_string(index++));
        fs::create_directories(folder);
        writeFile(folder / "big.dcm", "", buildDicom(slice, "1.2.94"));
        CHECK_THAT(errorMessage([&] { loadVolume(folder.string()); }), Contains("big.dcm") && Contains(c.says));
    }
}

// GDCM reads a delimiter's non-zero length as a value and allocates it
// (found by fuzz: dicom, 1 GB for a 444-byte file); PS3.5 7.5 says 0.
TEST_CASE("a delimiter of non-zero length is an Error before GDCM allocates for it", "[dicom][volume]")
{
    DicomSlice slice;
    slice.pixels.assign(40, std::byte(0));
    std::vector<std::byte> bytes = buildDicom(slice, "1.2.93");
    std::vector<std::byte> itemEnd;
    putBytes(itemEnd, 0xfffe, 2), putBytes(itemEnd, 0xe00d, 2), putBytes(itemEnd, 0, 4);
    auto at = std::search(bytes.begin(), bytes.end(), itemEnd.begin(), itemEnd.end());
    REQUIRE(at != bytes.end());
    at[7] = std::byte(0x3f); // length 0x3f000000
    fs::path folder = tmpPath("delimiter_length");
    fs::create_directories(folder);
    writeFile(folder / "long.dcm", "", bytes);
    CHECK_THAT(errorMessage([&] { loadVolume(folder.string()); }),
               Contains("long.dcm") && Contains("(fffe,e00d)") && Contains("delimiter of length 1056964608"));
}
