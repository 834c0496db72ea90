// NRRD (teem's format, http://teem.sourceforge.net/nrrd/format.html):
// attached .nrrd and detached .nhdr, 3D, raw or gzip.
#include <cmath>
#include <fstream>
#include <map>

#include "core/error.h"
#include "volume/read_support.h"
#include "volume/readers.h"

namespace isoscope {

using namespace readsupport;
namespace fs = std::filesystem;

namespace {

// Every spelling the NRRD format allows for the four supported types.
std::optional<ScalarType> parseNrrdType(std::string_view text)
{
    std::string lower = lowercase(text);
    std::string name;
    for (std::string_view word : splitWords(lower)) // "unsigned  char" → "unsigned char"
        name += (name.empty() ? "" : " ") + std::string(word);
    static const std::map<std::string, ScalarType, std::less<>> types = {
        {"uchar", ScalarType::UInt8},
        {"unsigned char", ScalarType::UInt8},
        {"uint8", ScalarType::UInt8},
        {"uint8_t", ScalarType::UInt8},
        {"ushort", ScalarType::UInt16},
        {"unsigned short", ScalarType::UInt16},
        {"unsigned short int", ScalarType::UInt16},
        {"uint16", ScalarType::UInt16},
        {"uint16_t", ScalarType::UInt16},
        {"short", ScalarType::Int16},
        {"short int", ScalarType::Int16},
        {"signed short", ScalarType::Int16},
        {"signed short int", ScalarType::Int16},
        {"int16", ScalarType::Int16},
        {"int16_t", ScalarType::Int16},
        {"float", ScalarType::Float32},
    };
    auto found = types.find(name);
    return found == types.end() ? std::nullopt : std::optional(found->second);
}

// "(1,0,0) (0,1,0) (0,0,1)" or "(1, 2, 3)": the numbers of each parenthesised
// vector; "none" (a non-spatial axis) gives an empty vector.
std::vector<std::vector<double>> parseVectors(const fs::path& path, std::string_view field, std::string_view text)
{
    std::vector<std::vector<double>> vectors;
    size_t position = 0;
    while (true) {
        size_t start = text.find_first_not_of(" \t", position);
        if (start == std::string_view::npos)
            break;
        if (text.substr(start, 4) == "none") {
            vectors.emplace_back();
            position = start + 4;
            continue;
        }
        size_t end = text.find(')', start);
        if (text[start] != '(' || end == std::string_view::npos)
            failFile(path, std::string(field) + ": cannot read '" + printable(text) + "' as (x,y,z) vectors");
        std::vector<double> vector;
        std::string_view inside = text.substr(start + 1, end - start - 1);
        size_t from = 0;
        while (from <= inside.size()) {
            size_t comma = inside.find(',', from);
            if (comma == std::string_view::npos)
                comma = inside.size();
            vector.push_back(parseNumber(path, field, trim(inside.substr(from, comma - from))));
            from = comma + 1;
        }
        vectors.push_back(std::move(vector));
        position = end + 1;
    }
    return vectors;
}

struct NrrdHeader {
    std::map<std::string, std::string, std::less<>> fields; // lowercase name → value
    uint64_t headerBytes = 0;                               // where attached data start
    bool ended = false;                                     // a blank line closed the header
};

NrrdHeader parseHeader(const fs::path& path)
{
    std::string text = readHeaderText(path);
    LineCursor cursor{text, path.extension() == ".nhdr"}; // a detached header may end without '\n'
    std::string_view line;
    if (!cursor.next(line) || line.substr(0, 7) != "NRRD000")
        failFile(path, "not a NRRD file: the first line should be a magic like NRRD0004");

    NrrdHeader header;
    while (cursor.next(line)) {
        if (line.empty()) {
            header.ended = true;
            break;
        }
        if (line.front() == '#' || line.find(":=") != std::string_view::npos) // comments and key/value pairs
            continue;
        size_t colon = line.find(':'); // the format says ": ", some writers omit the space
        if (colon == std::string_view::npos)
            failFile(path, "cannot read the header line '" + printable(line) + "' (expected 'field: value')");
        std::string name = lowercase(trim(line.substr(0, colon)));
        if (name == "datafile" || name == "data file")
            name = "data file";
        if (name == "byteskip")
            name = "byte skip";
        if (name == "lineskip")
            name = "line skip";
        header.fields[name] = std::string(trim(line.substr(colon + 1)));
    }
    header.headerBytes = cursor.offset;
    return header;
}

const std::string& requireField(const fs::path& path, const NrrdHeader& header, std::string_view name)
{
    auto found = header.fields.find(name);
    if (found == header.fields.end())
        failFile(path, "the header has no '" + std::string(name) + ":' field, which isoscope needs");
    return found->second;
}

std::optional<std::string_view> optionalField(const NrrdHeader& header, std::string_view name)
{
    auto found = header.fields.find(name);
    return found == header.fields.end() ? std::nullopt : std::optional<std::string_view>(found->second);
}

std::array<double, 3> spacingOf(const fs::path& path, const NrrdHeader& header)
{
    std::array<double, 3> spacing{1.0, 1.0, 1.0};
    if (auto directions = optionalField(header, "space directions")) {
        std::vector<std::vector<double>> vectors = parseVectors(path, "space directions", *directions);
        if (vectors.size() != 3)
            failFile(path, "space directions has " + std::to_string(vectors.size()) + " vectors, expected 3");
        // Rotations and flips are dropped: Volume is axis-aligned, so only the
        // step length along each axis is kept.
        for (int axis = 0; axis < 3; ++axis) {
            double squared = 0.0;
            for (double component : vectors[axis])
                squared += component * component;
            spacing[axis] = vectors[axis].empty() ? 1.0 : std::sqrt(squared);
        }
        checkSpacing(path, "space directions", spacing);
    } else if (auto spacings = optionalField(header, "spacings")) {
        std::vector<std::string_view> words = splitWords(*spacings);
        if (words.size() != 3)
            failFile(path, "spacings has " + std::to_string(words.size()) + " values, expected 3");
        for (int axis = 0; axis < 3; ++axis) {
            double value = parseNumber(path, "spacings", words[axis]);
            spacing[axis] = std::isnan(value) ? 1.0 : value; // NaN: spacing unknown
        }
        checkSpacing(path, "spacings", spacing);
    }
    return spacing;
}

std::array<double, 3> originOf(const fs::path& path, const NrrdHeader& header)
{
    auto text = optionalField(header, "space origin");
    if (!text)
        return {0.0, 0.0, 0.0};
    std::vector<std::vector<double>> vectors = parseVectors(path, "space origin", *text);
    if (vectors.size() != 1 || vectors[0].size() != 3)
        failFile(path, "space origin: expected one (x,y,z) vector, got '" + printable(*text) + "'");
    return {vectors[0][0], vectors[0][1], vectors[0][2]};
}

// Bytes to step over at the start of a detached data file for `line skip`.
uint64_t bytesOfLines(const fs::path& dataPath, int64_t lines)
{
    std::ifstream file(dataPath, std::ios::binary);
    uint64_t bytes = 0;
    std::string line;
    for (int64_t i = 0; i < lines; ++i) {
        if (!std::getline(file, line))
            failFile(dataPath, "line skip: the file has fewer than " + std::to_string(lines) + " lines");
        bytes += line.size() + 1;
    }
    return bytes;
}

} // namespace

Volume readNrrd(const fs::path& path)
{
    NrrdHeader header = parseHeader(path);

    int64_t dimension = parseInteger(path, "dimension", requireField(path, header, "dimension"));
    if (dimension != 3)
        failFile(path, "dimension is " + std::to_string(dimension) + "; isoscope reads 3D scalar volumes only");

    Volume volume;
    const std::string& typeText = requireField(path, header, "type");
    std::optional<ScalarType> type = parseNrrdType(typeText);
    if (!type)
        failFile(path, "type '" + printable(typeText) + "' is not supported; isoscope reads uchar, ushort, short and float "
                                             "(convert with e.g. `unu convert -t float`)");
    volume.type = *type;
    volume.dims = parseDims(path, "sizes", splitWords(requireField(path, header, "sizes")));
    volume.spacing = spacingOf(path, header);
    volume.origin = originOf(path, header);
    uint64_t bytes = checkedByteSize(path, volume.dims, volume.type);

    std::string encoding = lowercase(requireField(path, header, "encoding"));
    bool gzip = encoding == "gzip" || encoding == "gz";
    if (encoding != "raw" && !gzip)
        failFile(path, "encoding '" + printable(encoding) + "' is not supported; isoscope reads raw and gzip "
                                                 "(convert with `unu save -e raw`)");

    bool bigEndian = false;
    if (scalarSize(volume.type) > 1) {
        std::string endian = lowercase(requireField(path, header, "endian"));
        if (endian != "little" && endian != "big")
            failFile(path, "endian '" + printable(endian) + "' must be little or big");
        bigEndian = endian == "big";
    }

    fs::path dataPath = path;
    uint64_t offset = header.headerBytes;
    if (auto dataFile = optionalField(header, "data file")) {
        if (dataFile->find(' ') != std::string_view::npos || *dataFile == "LIST")
            failFile(path, "data file '" + printable(*dataFile) +
                               "' names several files; isoscope reads one data file per volume");
        dataPath = dataFileBeside(path, *dataFile);
        if (!fs::exists(dataPath))
            failFile(path, "its data file '" + dataPath.string() + "' is missing; keep it beside the header");
        offset = 0;
    } else if (!header.ended) {
        failFile(path, "the header does not end (no blank line before the data, within the first MiB)");
    }
    if (auto lineSkip = optionalField(header, "line skip")) {
        int64_t lines = parseInteger(path, "line skip", *lineSkip);
        if (lines < 0)
            failFile(path, "line skip must not be negative");
        offset += bytesOfLines(dataPath, lines);
    }
    int64_t byteSkip = 0;
    if (auto skip = optionalField(header, "byte skip"))
        byteSkip = parseInteger(path, "byte skip", *skip);
    if (byteSkip < -1 || (byteSkip == -1 && gzip))
        failFile(path, "byte skip " + std::to_string(byteSkip) + " is not supported (-1 only with raw encoding)");

    uint64_t available = fileSize(dataPath);
    if (gzip) {
        // For compressed data, byte skip counts decompressed bytes (format spec).
        std::vector<std::byte> compressed = readBytes(dataPath, offset, available - std::min(offset, available));
        std::vector<std::byte> data = inflateExactly(dataPath, compressed, bytes + uint64_t(byteSkip));
        data.erase(data.begin(), data.begin() + byteSkip);
        volume.data = std::move(data);
    } else {
        if (byteSkip == -1) // the data are the file's last bytes
            offset = available >= bytes ? available - bytes : 0;
        else
            offset += uint64_t(byteSkip);
        uint64_t remaining = available - std::min(offset, available);
        if (remaining != bytes)
            failFile(dataPath, "holds " + std::to_string(remaining) + " bytes of data but the header '" +
                                   path.filename().string() + "' describes " + std::to_string(bytes) +
                                   " (sizes × type size); " +
                                   (remaining < bytes ? "the file is truncated" : "check sizes, type and byte skip"));
        volume.data = readBytes(dataPath, offset, bytes);
    }
    toHostOrder(volume.data, volume.type, bigEndian);
    return finishVolume(std::move(volume), path);
}

} // namespace isoscope
