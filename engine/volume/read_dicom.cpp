// DICOM series through GDCM: the files of one Series Instance UID in a folder,
// one 2D slice each, ordered by Image Position (Patient) along the slice
// normal. GDCM parses each file and decodes its pixel data (native, RLE,
// JPEG, JPEG-LS, JPEG 2000: the codecs Debian's GDCM is built with); this
// file groups, orders, checks and places the slices.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <sstream>
#include <string>

#include <gdcmImage.h>
#include <gdcmImageReader.h>
#include <gdcmScanner.h>

#include "core/error.h"
#include "core/text.h"
#include "volume/dicom_structure.h"
#include "volume/read_support.h"
#include "volume/readers.h"

namespace isoscope {

using namespace readsupport;
namespace fs = std::filesystem;

namespace {

const gdcm::Tag seriesUidTag(0x0020, 0x000e), positionTag(0x0020, 0x0032), orientationTag(0x0020, 0x0037),
    pixelSpacingTag(0x0028, 0x0030);

using Vector3 = std::array<double, 3>;

double dot(const Vector3& a, const Vector3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
Vector3 cross(const Vector3& a, const Vector3& b)
{
    return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}

std::string number(double value)
{
    char text[32];
    std::snprintf(text, sizeof(text), "%.6g", value);
    return text;
}

// A decimal-string value "a\b\c" as count numbers; nullopt when it is not that.
std::optional<std::vector<double>> numbersOf(const char* text, size_t count)
{
    if (!text)
        return std::nullopt;
    std::vector<double> values;
    std::string field(text);
    std::replace(field.begin(), field.end(), '\\', ' ');
    std::istringstream stream(field);
    double value;
    while (stream >> value)
        values.push_back(value);
    if (values.size() != count || !std::all_of(values.begin(), values.end(), [](double v) { return std::isfinite(v); }))
        return std::nullopt;
    return values;
}

std::string trimmed(const char* text)
{
    return text ? std::string(trim(text)) : std::string();
}

struct Slice {
    fs::path path;
    Vector3 position{};
    double along = 0.0; // position along the slice normal
};

// The DICOM Part 10 files of a folder (not recursive), each one's structure
// checked before GDCM sees it (see dicom_structure.h); other files are skipped.
std::vector<std::string> candidateFiles(const fs::path& folder)
{
    std::vector<std::string> files;
    std::error_code error;
    for (fs::directory_iterator entry(folder, error), end; !error && entry != end; entry.increment(error))
        if (entry->is_regular_file(error) && checkDicomStructure(entry->path()) == DicomFileKind::Sound)
            files.push_back(entry->path().string());
    if (error)
        failFile(folder, "cannot list the folder: " + error.message());
    std::sort(files.begin(), files.end());
    return files;
}

std::string listDicomSeriesText(const std::map<std::string, std::vector<std::string>>& series)
{
    std::string text;
    for (const auto& [uid, files] : series)
        text += (text.empty() ? "" : ", ") + uid + " (" + std::to_string(files.size()) + " files)";
    return text;
}

// Picks the series: the one given, the given file's, or the only one.
std::string chooseSeries(const fs::path& where, const std::map<std::string, std::vector<std::string>>& series,
                         const std::string& wanted, const std::string& fileSeries)
{
    if (!wanted.empty()) {
        if (!series.count(wanted))
            failFile(where, "holds no DICOM series " + wanted + "; its series: " + listDicomSeriesText(series));
        return wanted;
    }
    if (!fileSeries.empty())
        return fileSeries;
    if (series.size() != 1)
        failFile(where, "holds " + std::to_string(series.size()) + " DICOM series; choose one with --series UID: " +
                            listDicomSeriesText(series));
    return series.begin()->first;
}

struct SeriesScan {
    gdcm::Scanner scanner;
    std::map<std::string, std::vector<std::string>> series; // UID → files
};

std::unique_ptr<SeriesScan> scanFolder(const fs::path& folder)
{
    auto scan = std::make_unique<SeriesScan>();
    for (const gdcm::Tag& tag : {seriesUidTag, positionTag, orientationTag, pixelSpacingTag})
        scan->scanner.AddTag(tag);
    std::vector<std::string> files = candidateFiles(folder);
    try {
        scan->scanner.Scan(files);
    } catch (const std::exception& error) {
        failFile(folder, std::string("GDCM failed while scanning the folder: ") + error.what());
    }
    for (const std::string& file : files)
        if (scan->scanner.IsKey(file.c_str())) {
            std::string uid = trimmed(scan->scanner.GetValue(file.c_str(), seriesUidTag));
            scan->series[uid.empty() ? "(no Series Instance UID)" : uid].push_back(file);
        }
    return scan;
}

// One slice's samples as float (after its own rescale) or as stored, checked
// against its Rows and Columns.
struct DecodedSlice {
    std::vector<std::byte> samples; // GDCM's buffer, host order
    gdcm::PixelFormat::ScalarType type = gdcm::PixelFormat::UNKNOWN;
    double slope = 1.0, intercept = 0.0;
};

// columns and rows 0: taken from this slice (the series' first).
DecodedSlice decodeSlice(const fs::path& path, uint32_t& columns, uint32_t& rows)
{
    gdcm::ImageReader reader;
    reader.SetFileName(path.c_str());
    DecodedSlice slice;
    try {
        if (!reader.Read())
            failFile(path, "GDCM cannot read it as a DICOM image (truncated, or not an image)");
        const gdcm::Image& image = reader.GetImage();
        const gdcm::PixelFormat& format = image.GetPixelFormat();
        if (format.GetSamplesPerPixel() != 1)
            failFile(path, std::to_string(format.GetSamplesPerPixel()) +
                               " samples per pixel (colour); isoscope reads grayscale series");
        // GDCM asserts in GetPixelSize on a Bits Allocated that is not whole
        // bytes, and in its codec on 24, 40, 48 or 56 (found by fuzz: dicom),
        // so it is checked first.
        uint16_t bitsAllocated = format.GetBitsAllocated();
        if (bitsAllocated != 8 && bitsAllocated != 16 && bitsAllocated != 32 && bitsAllocated != 64)
            failFile(path, "has Bits Allocated (0028,0100) " + std::to_string(bitsAllocated) +
                               "; isoscope reads 8, 16, 32 or 64");
        // GDCM masks unused high bits only for 16-bit samples and asserts on any
        // other Bits Stored below Bits Allocated (gdcmImageCodec.cxx; found by fuzz: dicom).
        uint16_t bitsStored = format.GetBitsStored();
        if (bitsAllocated != 16 && bitsStored < bitsAllocated)
            failFile(path, "has Bits Stored (0028,0101) " + std::to_string(bitsStored) + " of Bits Allocated " +
                               std::to_string(bitsAllocated) +
                               "; isoscope reads fewer bits stored than allocated only in 16-bit samples");
        if (image.GetNumberOfDimensions() == 3 && image.GetDimension(2) != 1)
            failFile(path, "holds " + std::to_string(image.GetDimension(2)) +
                               " frames; isoscope reads series of single-frame slices");
        if (columns == 0) {
            columns = image.GetDimension(0), rows = image.GetDimension(1);
            if (columns == 0 || rows == 0)
                failFile(path, "has " + std::to_string(columns) + "x" + std::to_string(rows) + " pixels");
        }
        if (image.GetDimension(0) != columns || image.GetDimension(1) != rows)
            failFile(path, "is " + std::to_string(image.GetDimension(0)) + "x" + std::to_string(image.GetDimension(1)) +
                               " but the series' first slice is " + std::to_string(columns) + "x" +
                               std::to_string(rows) + "; every slice must match");
        slice.type = format.GetScalarType();
        uint64_t needed = uint64_t(columns) * rows * format.GetPixelSize();
        // The stored pixel data must be able to hold the image before GDCM allocates for it.
        const gdcm::DataElement& pixels = image.GetDataElement();
        uint64_t stored = 0;
        if (const gdcm::ByteValue* native = pixels.GetByteValue())
            stored = uint64_t(native->GetLength());
        else if (const gdcm::SequenceOfFragments* fragments = pixels.GetSequenceOfFragments())
            stored = uint64_t(fragments->ComputeByteLength());
        uint64_t ratio = image.GetTransferSyntax().IsEncapsulated() ? 4096 : 1;
        if (stored * ratio < needed || image.GetBufferLength() != needed)
            failFile(path, "its pixel data (" + std::to_string(stored) + " bytes) cannot hold " +
                               std::to_string(columns) + "x" + std::to_string(rows) + " samples of " +
                               std::to_string(format.GetPixelSize()) + " bytes (truncated, or lying Rows/Columns)");
        slice.samples.resize(needed);
        if (!image.GetBuffer(reinterpret_cast<char*>(slice.samples.data())))
            failFile(path, "GDCM could not decode its pixel data (transfer syntax " +
                               std::string(image.GetTransferSyntax().GetString() ? image.GetTransferSyntax().GetString()
                                                                                  : "?") +
                               ")");
        slice.slope = image.GetSlope();
        slice.intercept = image.GetIntercept();
    } catch (const Error&) {
        throw;
    } catch (const std::exception& error) {
        failFile(path, std::string("GDCM failed: ") + error.what());
    }
    if (!std::isfinite(slice.slope) || !std::isfinite(slice.intercept) || slice.slope == 0.0)
        failFile(path, "Rescale Slope " + number(slice.slope) + " / Intercept " + number(slice.intercept) +
                           " are not usable");
    return slice;
}

template <typename T>
double storedValue(const std::vector<std::byte>& samples, size_t i)
{
    T value;
    std::memcpy(&value, samples.data() + i * sizeof(T), sizeof(T));
    return double(value);
}

// The slice's values after rescale, in double.
std::vector<double> sliceValues(const fs::path& path, const DecodedSlice& slice, size_t count)
{
    std::vector<double> values(count);
    for (size_t i = 0; i < count; ++i) {
        double v = 0.0;
        switch (slice.type) {
        case gdcm::PixelFormat::UINT8: v = storedValue<uint8_t>(slice.samples, i); break;
        case gdcm::PixelFormat::INT8: v = storedValue<int8_t>(slice.samples, i); break;
        case gdcm::PixelFormat::UINT12:
        case gdcm::PixelFormat::UINT16: v = storedValue<uint16_t>(slice.samples, i); break;
        case gdcm::PixelFormat::INT12:
        case gdcm::PixelFormat::INT16: v = storedValue<int16_t>(slice.samples, i); break;
        case gdcm::PixelFormat::UINT32: v = storedValue<uint32_t>(slice.samples, i); break;
        case gdcm::PixelFormat::INT32: v = storedValue<int32_t>(slice.samples, i); break;
        case gdcm::PixelFormat::FLOAT32: v = storedValue<float>(slice.samples, i); break;
        case gdcm::PixelFormat::FLOAT64: v = storedValue<double>(slice.samples, i); break;
        default:
            failFile(path, "its pixel type (" + std::string(gdcm::PixelFormat(slice.type).GetScalarTypeAsString()) +
                               ") is not supported; isoscope reads 8, 16 and 32-bit integer and float pixels");
        }
        values[i] = v * slice.slope + slice.intercept;
    }
    return values;
}

// The engine type that holds every value exactly, else float32.
ScalarType typeFor(const std::vector<std::vector<double>>& slices, bool& rounded)
{
    double low = INFINITY, high = -INFINITY;
    bool integral = true;
    for (const auto& slice : slices)
        for (double v : slice) {
            low = std::min(low, v), high = std::max(high, v);
            integral = integral && v == std::floor(v);
        }
    rounded = false;
    if (integral && low >= 0 && high <= 255)
        return ScalarType::UInt8;
    if (integral && low >= 0 && high <= 65535)
        return ScalarType::UInt16;
    if (integral && low >= -32768 && high <= 32767)
        return ScalarType::Int16;
    for (const auto& slice : slices)
        for (double v : slice)
            rounded = rounded || double(float(v)) != v;
    return ScalarType::Float32;
}

void storeAs(std::vector<std::byte>& out, const std::vector<double>& values, ScalarType type)
{
    size_t size = scalarSize(type), start = out.size();
    out.resize(start + values.size() * size);
    std::byte* at = out.data() + start;
    for (size_t i = 0; i < values.size(); ++i, at += size) {
        double v = values[i];
        switch (type) {
        case ScalarType::UInt8: { uint8_t x = uint8_t(v); std::memcpy(at, &x, 1); break; }
        case ScalarType::UInt16: { uint16_t x = uint16_t(v); std::memcpy(at, &x, 2); break; }
        case ScalarType::Int16: { int16_t x = int16_t(v); std::memcpy(at, &x, 2); break; }
        case ScalarType::Float32: { float x = float(v); std::memcpy(at, &x, 4); break; }
        }
    }
}

} // namespace

std::map<std::string, std::vector<std::string>> listDicomSeries(const fs::path& folder)
{
    return scanFolder(folder)->series;
}

Volume readDicomSeries(const fs::path& where, const std::string& seriesUid, const Progress& progress)
{
    std::error_code error;
    bool isFolder = fs::is_directory(where, error);
    if (!isFolder)
        fileSize(where); // exists
    fs::path folder = isFolder ? where : (where.has_parent_path() ? where.parent_path() : fs::path("."));
    std::unique_ptr<SeriesScan> scan = scanFolder(folder);
    gdcm::Scanner& scanner = scan->scanner;
    std::string fileSeries;
    if (!isFolder) {
        std::string key = (folder / where.filename()).string(); // as the folder listing names it
        if (checkDicomStructure(where) == DicomFileKind::NotDicom || !scanner.IsKey(key.c_str()))
            failFile(where, "GDCM cannot read it as DICOM (not a DICOM Part 10 file)");
        fileSeries = trimmed(scanner.GetValue(key.c_str(), seriesUidTag));
        if (fileSeries.empty())
            fileSeries = "(no Series Instance UID)";
    }
    if (scan->series.empty())
        failFile(where, "holds neither .tif/.tiff slices nor DICOM files GDCM can read; give a volume file, or a "
                        "folder of TIFF or DICOM slices");
    std::string uid = chooseSeries(where, scan->series, seriesUid, fileSeries);
    const std::vector<std::string>& files = scan->series.at(uid);

    // Geometry from the first file; every slice must share the orientation and size.
    const char* first = files.front().c_str();
    auto orientation = numbersOf(scanner.GetValue(first, orientationTag), 6);
    auto pixelSpacing = numbersOf(scanner.GetValue(first, pixelSpacingTag), 2);
    if (!orientation)
        failFile(first, "has no usable Image Orientation (Patient) (0020,0037): six numbers");
    Vector3 row{(*orientation)[0], (*orientation)[1], (*orientation)[2]};
    Vector3 column{(*orientation)[3], (*orientation)[4], (*orientation)[5]};
    Vector3 normal = cross(row, column);
    if (std::fabs(std::sqrt(dot(normal, normal)) - 1.0) > 1e-3)
        failFile(first, "Image Orientation (Patient) is not two orthogonal unit vectors");
    std::vector<Slice> slices;
    for (const std::string& file : files) {
        auto position = numbersOf(scanner.GetValue(file.c_str(), positionTag), 3);
        auto ownOrientation = numbersOf(scanner.GetValue(file.c_str(), orientationTag), 6);
        if (!position)
            failFile(file, "has no usable Image Position (Patient) (0020,0032): three numbers");
        for (int i = 0; ownOrientation && i < 6; ++i)
            if (std::fabs((*ownOrientation)[i] - (*orientation)[i]) > 1e-4)
                failFile(file, "its Image Orientation (Patient) differs from '" + fs::path(first).filename().string() +
                                   "'s; isoscope reads series of parallel slices");
        Vector3 p{(*position)[0], (*position)[1], (*position)[2]};
        slices.push_back({file, p, dot(p, normal)});
    }
    std::sort(slices.begin(), slices.end(), [](const Slice& a, const Slice& b) { return a.along < b.along; });

    Volume volume;
    std::vector<std::string> notes;
    std::vector<double> steps;
    for (size_t k = 1; k < slices.size(); ++k) {
        steps.push_back(slices[k].along - slices[k - 1].along);
        if (steps.back() < 1e-6)
            failFile(slices[k].path, "lies at the same position as '" + slices[k - 1].path.filename().string() +
                                         "' (" + number(slices[k].along) +
                                         " along the normal); is this several series or echoes under one UID?");
    }
    double step = slices.size() > 1 ? (slices.back().along - slices.front().along) / double(slices.size() - 1) : 1.0;
    if (!steps.empty()) {
        auto [low, high] = std::minmax_element(steps.begin(), steps.end());
        if (*high - *low > 0.01 * step)
            notes.push_back("uneven slice spacing (gaps?): steps from " + number(*low) + " to " + number(*high) +
                            " along the normal, mean " + number(step) + "; the volume assumes " + number(step));
    }

    uint32_t columns = 0, rows = 0;
    std::vector<std::vector<double>> values;
    uint64_t bytesDecoded = 0;
    if (progress)
        progress({"reading DICOM series", 0, slices.size(), "files", 0});
    for (const Slice& slice : slices) {
        DecodedSlice decoded = decodeSlice(slice.path, columns, rows);
        if (values.empty()) // the first slice fixes the size: the whole series within limits before the rest
            checkedByteSize(where, {columns, rows, uint32_t(slices.size())}, ScalarType::Float32);
        values.push_back(sliceValues(slice.path, decoded, size_t(columns) * rows));
        bytesDecoded += decoded.samples.size();
        if (progress)
            progress({"reading DICOM series", values.size(), slices.size(), "files", bytesDecoded});
    }
    volume.dims = {columns, rows, uint32_t(slices.size())};
    bool rounded = false;
    volume.type = typeFor(values, rounded);
    for (const auto& slice : values)
        storeAs(volume.data, slice, volume.type);
    if (rounded)
        notes.push_back("rescaled values rounded to float32");

    // Index to world: columns step along the row direction by the column spacing, as DICOM defines them.
    double rowSpacing = pixelSpacing ? (*pixelSpacing)[0] : 1.0, columnSpacing = pixelSpacing ? (*pixelSpacing)[1] : 1.0;
    if (!pixelSpacing)
        notes.push_back("no Pixel Spacing (0028,0030): 1 1 assumed");
    Vector3 sliceStep = slices.size() > 1 ? Vector3{(slices.back().position[0] - slices.front().position[0]) / double(slices.size() - 1),
                                                    (slices.back().position[1] - slices.front().position[1]) / double(slices.size() - 1),
                                                    (slices.back().position[2] - slices.front().position[2]) / double(slices.size() - 1)}
                                          : normal;
    Affine m{};
    for (int axis = 0; axis < 3; ++axis) {
        m[axis][0] = row[axis] * columnSpacing;
        m[axis][1] = column[axis] * rowSpacing;
        m[axis][2] = sliceStep[axis];
        m[axis][3] = slices.front().position[axis];
    }
    m[3] = {0, 0, 0, 1};
    volume.spacing = {columnSpacing, rowSpacing, std::sqrt(dot(sliceStep, sliceStep))};
    checkSpacing(where, "Pixel Spacing and slice positions", volume.spacing);
    volume.origin = slices.front().position;
    bool axisAligned = true;
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c)
            if (r == c ? !(m[r][c] > 0.0) : m[r][c] != 0.0)
                axisAligned = false;
    if (!axisAligned)
        volume.indexToWorld = m;
    volume.notes = std::move(notes);
    if (scan->series.size() > 1)
        volume.notes.push_back("series " + uid + " of the " + std::to_string(scan->series.size()) + " in the folder");
    return finishVolume(std::move(volume), where);
}

} // namespace isoscope
