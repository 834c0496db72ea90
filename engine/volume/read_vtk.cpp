// VTK legacy format ("File Formats for VTK Version 4.2", Kitware), the
// STRUCTURED_POINTS dataset with one scalar array of point data.
#include <charconv>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>

#include "core/error.h"
#include "core/text.h"
#include "volume/read_support.h"
#include "volume/readers.h"

namespace isoscope {

using namespace readsupport;
namespace fs = std::filesystem;

namespace {

std::optional<ScalarType> parseVtkType(std::string_view name)
{
    return scalarTypeNamed(lowercase(std::string(name)), {{"unsigned_char", ScalarType::UInt8},
                                                         {"unsigned_short", ScalarType::UInt16},
                                                         {"short", ScalarType::Int16},
                                                         {"float", ScalarType::Float32}});
}

struct VtkHeader {
    bool binary = false;
    std::optional<std::array<uint32_t, 3>> dims;
    std::array<double, 3> spacing{1.0, 1.0, 1.0};
    std::array<double, 3> origin{0.0, 0.0, 0.0};
    std::optional<uint64_t> pointCount;
    std::optional<ScalarType> type;
    uint64_t dataOffset = 0; // where the scalar values start
};

// The next line that is not blank.
bool nextContentLine(LineCursor& cursor, std::string_view& line)
{
    while (cursor.next(line))
        if (!trim(line).empty())
            return true;
    return false;
}

VtkHeader parseHeader(const fs::path& path)
{
    std::string text = readHeaderText(path);
    LineCursor cursor{text};
    std::string_view line;
    if (!cursor.next(line) || lowercase(std::string(line)).find("# vtk datafile") != 0)
        failFile(path, "not a VTK legacy file: the first line should be '# vtk DataFile Version ...'");
    if (!cursor.next(line)) // the title, free text
        failFile(path, "the header ends after the first line");

    VtkHeader header;
    if (!nextContentLine(cursor, line))
        failFile(path, "the header ends before ASCII or BINARY");
    std::string format = lowercase(std::string(trim(line)));
    if (format != "ascii" && format != "binary")
        failFile(path, "the third line is '" + printable(trim(line)) + "', expected ASCII or BINARY");
    header.binary = format == "binary";

    if (!nextContentLine(cursor, line))
        failFile(path, "the header ends before DATASET");
    std::vector<std::string_view> words = splitWords(line);
    if (words.size() != 2 || lowercase(std::string(words[0])) != "dataset")
        failFile(path, "expected 'DATASET STRUCTURED_POINTS', got '" + printable(trim(line)) + "'");
    if (lowercase(std::string(words[1])) != "structured_points")
        failFile(path, "dataset " + printable(words[1]) +
                           " is not supported; isoscope reads STRUCTURED_POINTS (a regular grid) only");

    while (nextContentLine(cursor, line)) {
        words = splitWords(line);
        std::string keyword = lowercase(std::string(words[0]));
        std::span<const std::string_view> values = std::span(words).subspan(1);
        if (keyword == "dimensions") {
            header.dims = parseDims(path, "DIMENSIONS", values);
        } else if (keyword == "spacing" || keyword == "aspect_ratio") {
            header.spacing = parseTriple(path, "SPACING", values);
            checkSpacing(path, "SPACING", header.spacing);
        } else if (keyword == "origin") {
            header.origin = parseTriple(path, "ORIGIN", values);
        } else if (keyword == "point_data") {
            if (values.size() != 1)
                failFile(path, "POINT_DATA needs one count");
            int64_t count = parseInteger(path, "POINT_DATA", values[0]);
            if (count <= 0)
                failFile(path, "POINT_DATA count " + std::to_string(count) + " must be positive");
            header.pointCount = uint64_t(count);
        } else if (keyword == "scalars") {
            if (!header.pointCount)
                failFile(path, "SCALARS comes before POINT_DATA; isoscope reads point data only");
            if (values.size() < 2 || values.size() > 3)
                failFile(path, "expected 'SCALARS name type [1]', got '" + printable(trim(line)) + "'");
            header.type = parseVtkType(values[1]);
            if (!header.type)
                failFile(path, "SCALARS type '" + printable(values[1]) +
                                   "' is not supported; isoscope reads unsigned_char, unsigned_short, short and float");
            if (values.size() == 3 && parseInteger(path, "SCALARS", values[2]) != 1)
                failFile(path, "SCALARS has " + printable(values[2]) +
                                   " components per point; isoscope reads one");
            // LOOKUP_TABLE is optional before the values.
            LineCursor peek = cursor;
            if (nextContentLine(peek, line) && lowercase(std::string(splitWords(line)[0])) == "lookup_table")
                cursor = peek;
            header.dataOffset = cursor.offset;
            return header;
        } else {
            failFile(path, "'" + printable(words[0]) + "' before the SCALARS values is not supported; "
                           "isoscope reads STRUCTURED_POINTS with one SCALARS array of POINT_DATA");
        }
    }
    failFile(path, "the header has no SCALARS line (within the first MiB)");
}

// Whitespace-separated numbers into samples of `type`, each checked to fit.
template <typename T>
void parseAsciiValues(const fs::path& path, std::string_view typeName, std::string_view text, uint64_t count,
                      std::vector<std::byte>& data)
{
    const char* cursor = text.data();
    const char* end = text.data() + text.size();
    for (uint64_t i = 0; i < count; ++i) {
        while (cursor < end && *cursor && std::strchr(" \t\r\n", *cursor))
            ++cursor;
        if (cursor == end)
            failFile(path, "truncated: found " + std::to_string(i) + " of the " + std::to_string(count) +
                               " values that DIMENSIONS and POINT_DATA call for");
        if (*cursor == '+')
            ++cursor;
        T value{};
        std::from_chars_result result;
        if constexpr (std::is_floating_point_v<T>) {
            double number = 0.0;
            result = std::from_chars(cursor, end, number); // accepts nan and inf
            value = T(number);
        } else {
            result = std::from_chars(cursor, end, value); // fails on out-of-range values
        }
        if (result.ec != std::errc() || (result.ptr != end && !(*result.ptr && std::strchr(" \t\r\n", *result.ptr))))
        {
            std::string_view rest(cursor, size_t(end - cursor));
            failFile(path, "value " + std::to_string(i) + " '" + printable(rest.substr(0, rest.find_first_of(" \t\r\n"))) +
                               "' is not a valid " + std::string(typeName) + " value");
        }
        std::memcpy(data.data() + i * sizeof(T), &value, sizeof(T));
        cursor = result.ptr;
    }
}

} // namespace

Volume readVtk(const fs::path& path, const Progress& progress)
{
    VtkHeader header = parseHeader(path);
    if (!header.dims)
        failFile(path, "the header has no DIMENSIONS line");

    Volume volume;
    volume.dims = *header.dims;
    volume.type = *header.type;
    volume.spacing = header.spacing;
    volume.origin = header.origin;
    uint64_t bytes = checkedByteSize(path, volume.dims, volume.type);
    if (*header.pointCount != volume.sampleCount())
        failFile(path, "POINT_DATA " + std::to_string(*header.pointCount) + " does not match DIMENSIONS (" +
                           std::to_string(volume.sampleCount()) + " points)");

    uint64_t available = fileSize(path);
    uint64_t remaining = available - std::min(header.dataOffset, available);
    if (header.binary) {
        // Later sections (more arrays, FIELD data) may follow the values.
        if (remaining < bytes)
            failFile(path, "truncated: " + std::to_string(remaining) + " bytes of values, DIMENSIONS and SCALARS call for " +
                               std::to_string(bytes));
        volume.data = readBytes(path, header.dataOffset, bytes, progress);
        toHostOrder(volume.data, volume.type, true); // legacy binary VTK is big-endian
    } else {
        // Every value takes at least a digit and a separator: refuse before allocating.
        if (remaining < 2 * volume.sampleCount() - 1)
            failFile(path, "truncated: " + std::to_string(remaining) + " bytes cannot hold " +
                               std::to_string(volume.sampleCount()) + " ASCII values");
        std::vector<std::byte> textBytes = readBytes(path, header.dataOffset, remaining, progress);
        std::string_view text(reinterpret_cast<const char*>(textBytes.data()), textBytes.size());
        volume.data.resize(size_t(bytes));
        std::string_view typeName = scalarName(volume.type);
        switch (volume.type) {
        case ScalarType::UInt8: parseAsciiValues<uint8_t>(path, typeName, text, volume.sampleCount(), volume.data); break;
        case ScalarType::UInt16: parseAsciiValues<uint16_t>(path, typeName, text, volume.sampleCount(), volume.data); break;
        case ScalarType::Int16: parseAsciiValues<int16_t>(path, typeName, text, volume.sampleCount(), volume.data); break;
        case ScalarType::Float32: parseAsciiValues<float>(path, typeName, text, volume.sampleCount(), volume.data); break;
        }
    }
    return finishVolume(std::move(volume), path);
}

} // namespace isoscope
