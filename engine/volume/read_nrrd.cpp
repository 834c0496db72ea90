// NRRD (teem's format, http://teem.sourceforge.net/nrrd/format.html):
// attached .nrrd and detached .nhdr, 3D, raw or gzip.
#include <cmath>
#include <fstream>

#include "core/error.h"
#include "core/text.h"
#include "volume/read_support.h"
#include "volume/readers.h"

namespace isoscope {

using namespace readsupport;
namespace fs = std::filesystem;

namespace {

// Every spelling the NRRD format allows for the four supported types.
std::optional<ScalarType> parseNrrdType(std::string_view text)
{
    std::string lower = lowercase(std::string(text));
    std::string name;
    for (std::string_view word : splitWords(lower)) // "unsigned  char" → "unsigned char"
        name += (name.empty() ? "" : " ") + std::string(word);
    return scalarTypeNamed(name, {
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
    });
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
    HeaderFields fields;      // lowercase name → value
    uint64_t headerBytes = 0; // where attached data start
    bool ended = false;       // a blank line closed the header
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
        std::string name = lowercase(std::string(trim(line.substr(0, colon))));
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

// A field isoscope needs, named in errors as the format spells it ("sizes:").
std::string_view requireNrrdField(const fs::path& path, const NrrdHeader& header, std::string_view name)
{
    return requireField(path, header.fields, name, "'" + std::string(name) + ":'");
}

std::array<double, 3> spacingOf(const fs::path& path, const NrrdHeader& header)
{
    std::array<double, 3> spacing{1.0, 1.0, 1.0};
    if (auto directions = optionalField(header.fields, "space directions")) {
        std::vector<std::vector<double>> vectors = parseVectors(path, "space directions", *directions);
        if (vectors.size() != 3)
            failFile(path, "space directions has " + std::to_string(vectors.size()) + " vectors, expected 3");
        // The step length along each axis is the spacing; rotations and flips
        // are kept apart, in indexToWorld (see directionsOf).
        for (int axis = 0; axis < 3; ++axis) {
            double squared = 0.0;
            for (double component : vectors[axis])
                squared += component * component;
            spacing[axis] = vectors[axis].empty() ? 1.0 : std::sqrt(squared);
        }
        checkSpacing(path, "space directions", spacing);
    } else if (auto spacings = optionalField(header.fields, "spacings")) {
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
    auto text = optionalField(header.fields, "space origin");
    if (!text)
        return {0.0, 0.0, 0.0};
    std::vector<std::vector<double>> vectors = parseVectors(path, "space origin", *text);
    if (vectors.size() != 1 || vectors[0].size() != 3)
        failFile(path, "space origin: expected one (x,y,z) vector, got '" + printable(*text) + "'");
    // Refused, as the MetaImage and VTK readers refuse theirs: a NaN origin
    // would make every vertex of a mesh NaN.
    for (double component : vectors[0])
        if (!std::isfinite(component))
            failFile(path, "space origin '" + printable(*text) + "' is not finite; give the position of the first "
                           "sample, e.g. (0,0,0)");
    return {vectors[0][0], vectors[0][1], vectors[0][2]};
}

// Where `space directions` rotate or flip the grid, the whole map (columns:
// the directions, translation: the origin); nothing where they are the
// diagonal of spacing, or not three 3D vectors.
std::optional<Affine> directionsOf(const fs::path& path, const NrrdHeader& header, const std::array<double, 3>& origin)
{
    auto directions = optionalField(header.fields, "space directions");
    if (!directions)
        return std::nullopt;
    std::vector<std::vector<double>> vectors = parseVectors(path, "space directions", *directions);
    Affine m{};
    bool axisAligned = true;
    for (int axis = 0; axis < 3; ++axis) {
        if (vectors.size() != 3 || vectors[axis].size() != 3)
            return std::nullopt;
        for (int row = 0; row < 3; ++row) {
            m[row][axis] = vectors[axis][row];
            if (row == axis ? !(vectors[axis][row] > 0.0) : vectors[axis][row] != 0.0)
                axisAligned = false;
        }
        m[axis][3] = origin[axis];
    }
    m[3] = {0.0, 0.0, 0.0, 1.0};
    return axisAligned ? std::nullopt : std::optional<Affine>(m);
}

// Bytes to step over for `line skip`: `lines` lines from offset (the start
// of the data file, or of the data after an attached header).
uint64_t bytesOfLines(const fs::path& dataPath, uint64_t offset, int64_t lines)
{
    std::ifstream file(dataPath, std::ios::binary);
    if (!file)
        failFile(dataPath, "cannot open for reading");
    file.seekg(std::streamoff(offset));
    uint64_t bytes = 0;
    std::string line;
    for (int64_t i = 0; i < lines; ++i) {
        if (!std::getline(file, line))
            failFile(dataPath, "line skip: the data have fewer than " + std::to_string(lines) + " lines");
        bytes += line.size() + 1;
    }
    return bytes;
}

// The grid and sample type the header describes.
Volume describeGrid(const fs::path& path, const NrrdHeader& header)
{
    int64_t dimension = parseInteger(path, "dimension", requireNrrdField(path, header, "dimension"));
    if (dimension != 3)
        failFile(path, "dimension is " + std::to_string(dimension) + "; isoscope reads 3D scalar volumes only");

    Volume volume;
    std::string_view typeText = requireNrrdField(path, header, "type");
    std::optional<ScalarType> type = parseNrrdType(typeText);
    if (!type)
        failFile(path, "type '" + printable(typeText) + "' is not supported; isoscope reads uchar, ushort, short and float "
                                             "(convert with e.g. `unu convert -t float`)");
    volume.type = *type;
    volume.dims = parseDims(path, "sizes", splitWords(requireNrrdField(path, header, "sizes")));
    volume.spacing = spacingOf(path, header);
    volume.origin = originOf(path, header);
    volume.indexToWorld = directionsOf(path, header, volume.origin);
    return volume;
}

// Where and how the samples are stored.
struct NrrdEncoding {
    bool gzip = false;
    bool bigEndian = false;
    fs::path dataPath;
    uint64_t offset = 0;  // where the stored (maybe compressed) data start, line skip included
    int64_t byteSkip = 0; // after offset; for gzip, in decompressed bytes (format spec)
};

NrrdEncoding describeEncoding(const fs::path& path, const NrrdHeader& header, ScalarType type)
{
    NrrdEncoding encoding;
    std::string name = lowercase(std::string(requireNrrdField(path, header, "encoding")));
    encoding.gzip = name == "gzip" || name == "gz";
    if (name != "raw" && !encoding.gzip)
        failFile(path, "encoding '" + printable(name) + "' is not supported; isoscope reads raw and gzip "
                                             "(convert with `unu save -e raw`)");
    if (scalarSize(type) > 1) {
        std::string endian = lowercase(std::string(requireNrrdField(path, header, "endian")));
        if (endian != "little" && endian != "big")
            failFile(path, "endian '" + printable(endian) + "' must be little or big");
        encoding.bigEndian = endian == "big";
    }

    encoding.dataPath = path;
    encoding.offset = header.headerBytes;
    if (auto dataFile = optionalField(header.fields, "data file")) {
        encoding.dataPath = dataFileBeside(path, "data file", *dataFile);
        encoding.offset = 0;
    } else if (!header.ended) {
        failFile(path, "the header does not end (no blank line before the data, within the first MiB)");
    }
    if (auto lineSkip = optionalField(header.fields, "line skip")) {
        int64_t lines = parseInteger(path, "line skip", *lineSkip);
        if (lines < 0)
            failFile(path, "line skip must not be negative");
        encoding.offset += bytesOfLines(encoding.dataPath, encoding.offset, lines);
    }
    if (auto skip = optionalField(header.fields, "byte skip"))
        encoding.byteSkip = parseInteger(path, "byte skip", *skip);
    if (encoding.byteSkip < -1 || (encoding.byteSkip == -1 && encoding.gzip))
        failFile(path, "byte skip " + std::to_string(encoding.byteSkip) +
                           " is not supported (-1 only with raw encoding)");
    return encoding;
}

std::vector<std::byte> readSamples(const fs::path& path, const NrrdEncoding& encoding, uint64_t bytes,
                                   const Progress& progress)
{
    if (!encoding.gzip)
        return readRawSamples(path, encoding.dataPath, encoding.offset, encoding.byteSkip, bytes,
                              {"sizes", "type", "byte skip"}, progress);
    uint64_t available = fileSize(encoding.dataPath);
    uint64_t skip = uint64_t(encoding.byteSkip);
    std::vector<std::byte> compressed =
        readBytes(encoding.dataPath, encoding.offset, available - std::min(encoding.offset, available), progress);
    std::vector<std::byte> data = inflateExactly(encoding.dataPath, compressed, bytes + skip, progress);
    data.erase(data.begin(), data.begin() + std::ptrdiff_t(skip));
    return data;
}

} // namespace

InPlaceLayout describeNrrdInPlace(const fs::path& path)
{
    NrrdHeader header = parseHeader(path);
    Volume volume = describeGrid(path, header);
    uint64_t bytes = checkedByteSize(path, volume.dims, volume.type);
    NrrdEncoding encoding = describeEncoding(path, header, volume.type);
    volume.source = path.string();
    if (encoding.gzip) {
        if (encoding.offset >= fileSize(encoding.dataPath))
            failFile(encoding.dataPath, "no compressed data after the header");
        InPlaceLayout layout{std::move(volume), encoding.dataPath, encoding.offset, encoding.bigEndian};
        layout.gzip = true;
        layout.gzipSkip = uint64_t(encoding.byteSkip);
        return layout;
    }
    uint64_t offset = rawSamplesOffset(path, encoding.dataPath, encoding.offset, encoding.byteSkip, bytes,
                                       {"sizes", "type", "byte skip"});
    return InPlaceLayout{std::move(volume), encoding.dataPath, offset, encoding.bigEndian};
}

Volume readNrrd(const fs::path& path, const Progress& progress)
{
    NrrdHeader header = parseHeader(path);
    Volume volume = describeGrid(path, header);
    uint64_t bytes = checkedByteSize(path, volume.dims, volume.type);
    NrrdEncoding encoding = describeEncoding(path, header, volume.type);
    volume.data = readSamples(path, encoding, bytes, progress);
    toHostOrder(volume.data, volume.type, encoding.bigEndian);
    return finishVolume(std::move(volume), path);
}

} // namespace isoscope
