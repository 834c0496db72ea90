#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "core/text.h"
#include "io/mesh_file_support.h"
#include "io/mesh_io.h"

namespace isoscope {

namespace {

[[noreturn]] void failFile(const std::filesystem::path& path, const std::string& problem)
{
    fail("cannot read mesh " + path.string() + ": " + problem);
}

// Fails unless text is text: a NUL or other control byte (a binary or
// zeroed file given an .obj name) would otherwise read as an empty mesh.
void requireText(const std::string& text, const std::filesystem::path& path)
{
    for (size_t i = 0; i < text.size(); ++i) {
        unsigned char c = static_cast<unsigned char>(text[i]);
        if (c < 32 && c != '\t' && c != '\n' && c != '\r' && c != '\v' && c != '\f')
            failFile(path, "byte " + std::to_string(i) + " is a control character (" + std::to_string(c) +
                               "): an OBJ file is text; this one is binary or corrupt");
    }
}

// The faces as read, before choosing faceSize: polygons of any size.
struct Polygons {
    std::vector<uint32_t> indices;
    std::vector<uint32_t> sizes;
};

// Faces of one size 3 or 4 stay as they are; anything else is fanned into triangles.
void setFaces(Mesh& mesh, const Polygons& polygons, const std::filesystem::path& path)
{
    for (uint32_t index : polygons.indices)
        if (index >= mesh.positions.size())
            failFile(path, "a face uses vertex " + std::to_string(index) + " of " +
                               std::to_string(mesh.positions.size()));
    bool uniform = !polygons.sizes.empty() &&
                   std::all_of(polygons.sizes.begin(), polygons.sizes.end(),
                               [&](uint32_t size) { return size == polygons.sizes[0]; }) &&
                   (polygons.sizes[0] == 3 || polygons.sizes[0] == 4);
    if (uniform || polygons.sizes.empty()) {
        mesh.faceSize = polygons.sizes.empty() ? 3 : polygons.sizes[0];
        mesh.indices.assign(polygons.indices.begin(), polygons.indices.end());
        return;
    }
    mesh.faceSize = 3;
    size_t offset = 0;
    for (uint32_t size : polygons.sizes) {
        if (size < 3)
            failFile(path, "a face has " + std::to_string(size) + " vertices, at least 3 needed");
        for (uint32_t i = 1; i + 1 < size; ++i)
            mesh.indices.insert(mesh.indices.end(), {polygons.indices[offset], polygons.indices[offset + i],
                                                     polygons.indices[offset + i + 1]});
        offset += size;
    }
}

// ---- PLY ----

enum class PlyType { Int8, UInt8, Int16, UInt16, Int32, UInt32, Float32, Float64 };

struct PlyProperty {
    std::string name;
    PlyType type = PlyType::Float32;
    bool isList = false;
    PlyType countType = PlyType::UInt8;
};

struct PlyElement {
    std::string name;
    uint64_t count = 0;
    std::vector<PlyProperty> properties;
};

bool parsePlyType(std::string_view name, PlyType& type)
{
    struct Named {
        std::string_view name;
        PlyType type;
    };
    constexpr Named names[] = {
        {"char", PlyType::Int8},     {"int8", PlyType::Int8},       {"uchar", PlyType::UInt8},
        {"uint8", PlyType::UInt8},   {"short", PlyType::Int16},     {"int16", PlyType::Int16},
        {"ushort", PlyType::UInt16}, {"uint16", PlyType::UInt16},   {"int", PlyType::Int32},
        {"int32", PlyType::Int32},   {"uint", PlyType::UInt32},     {"uint32", PlyType::UInt32},
        {"float", PlyType::Float32}, {"float32", PlyType::Float32}, {"double", PlyType::Float64},
        {"float64", PlyType::Float64},
    };
    for (const Named& named : names)
        if (named.name == name) {
            type = named.type;
            return true;
        }
    return false;
}

size_t plyTypeSize(PlyType type)
{
    switch (type) {
    case PlyType::Int8:
    case PlyType::UInt8: return 1;
    case PlyType::Int16:
    case PlyType::UInt16: return 2;
    case PlyType::Int32:
    case PlyType::UInt32:
    case PlyType::Float32: return 4;
    case PlyType::Float64: return 8;
    }
    return 0;
}

struct PlyHeader {
    bool binary = false;
    std::vector<PlyElement> elements;
    size_t dataOffset = 0;
};

PlyHeader parsePlyHeader(const std::string& text, const std::filesystem::path& path)
{
    PlyHeader header;
    size_t position = 0;
    int lineNumber = 0;
    bool formatSeen = false;
    while (true) {
        size_t end = text.find('\n', position);
        if (end == std::string::npos)
            failFile(path, "the PLY header has no end_header line");
        std::string line = text.substr(position, end - position);
        position = end + 1;
        ++lineNumber;
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        std::istringstream words(line);
        std::string keyword;
        words >> keyword;
        auto bad = [&](const std::string& problem) {
            failFile(path, "PLY header line " + std::to_string(lineNumber) + " '" + printable(line) + "': " + problem);
        };
        if (lineNumber == 1) {
            if (keyword != "ply")
                failFile(path, "not a PLY file (the first line is not 'ply')");
            continue;
        }
        if (keyword == "end_header")
            break;
        if (keyword == "comment" || keyword == "obj_info" || keyword.empty())
            continue;
        if (keyword == "format") {
            std::string format;
            words >> format;
            if (format == "ascii")
                header.binary = false;
            else if (format == "binary_little_endian")
                header.binary = true;
            else
                bad("format '" + format + "' is not supported (isoscope reads ascii and binary_little_endian)");
            formatSeen = true;
        } else if (keyword == "element") {
            PlyElement element;
            std::string count;
            if (!(words >> element.name >> count))
                bad("expected 'element NAME COUNT'");
            // from_chars, not >> into uint64_t: that reads "-1" as 2^64-1.
            auto [end, error] = std::from_chars(count.data(), count.data() + count.size(), element.count);
            if (error != std::errc() || end != count.data() + count.size())
                bad("the count '" + count + "' is not a number of items (0 or more)");
            header.elements.push_back(element);
        } else if (keyword == "property") {
            if (header.elements.empty())
                bad("a property before any element");
            PlyProperty property;
            std::string type;
            words >> type;
            if (type == "list") {
                std::string countType, itemType;
                words >> countType >> itemType;
                property.isList = true;
                if (!parsePlyType(countType, property.countType) || !parsePlyType(itemType, property.type))
                    bad("unknown list types '" + countType + "', '" + itemType + "'");
            } else if (!parsePlyType(type, property.type)) {
                bad("unknown type '" + type + "'");
            }
            if (!(words >> property.name))
                bad("the property has no name");
            header.elements.back().properties.push_back(property);
        } else {
            bad("unknown keyword '" + keyword + "'");
        }
    }
    if (!formatSeen)
        failFile(path, "the PLY header has no format line");
    header.dataOffset = position;
    return header;
}

// The fewest bytes one item of element can take in the file: binary, each
// scalar at its size and each list at its count alone (no items); ascii, a
// digit and a separator per property.
uint64_t minimumItemBytes(const PlyElement& element, bool binary)
{
    uint64_t bytes = 0;
    for (const PlyProperty& property : element.properties)
        bytes += binary ? plyTypeSize(property.isList ? property.countType : property.type) : 2;
    return bytes;
}

// Fails unless the element counts fit in the bytes after the header, so
// that a corrupt or hostile count is never trusted with an allocation.
void checkElementCounts(const PlyHeader& header, uint64_t dataBytes, const std::filesystem::path& path)
{
    uint64_t left = header.binary ? dataBytes : dataBytes + 1; // ascii: the last value needs no separator
    for (const PlyElement& element : header.elements) {
        uint64_t itemBytes = minimumItemBytes(element, header.binary);
        if (itemBytes == 0)
            continue; // nothing to read per item
        if (element.count > left / itemBytes)
            failFile(path, "the PLY header says " + std::to_string(element.count) + " " + element.name +
                               " items of at least " + std::to_string(itemBytes) + " bytes each, but only " +
                               std::to_string(dataBytes) + " bytes of data follow the header "
                               "(truncated file or corrupt header)");
        left -= element.count * itemBytes;
    }
}

// Reads the values of the body one at a time, in either encoding.
class PlyValues {
public:
    PlyValues(const std::string& text, size_t offset, bool binary, const std::filesystem::path& path)
        : text_(text), position_(offset), binary_(binary), path_(path)
    {
    }

    double next(PlyType type)
    {
        return binary_ ? nextBinary(type) : nextAscii();
    }

private:
    double nextBinary(PlyType type)
    {
        size_t size = plyTypeSize(type);
        if (position_ + size > text_.size())
            failFile(path_, "the PLY data ends early, at byte " + std::to_string(text_.size()) +
                                " (truncated file?)");
        const char* raw = text_.data() + position_;
        position_ += size;
        switch (type) {
        case PlyType::Int8: return load<int8_t>(raw);
        case PlyType::UInt8: return load<uint8_t>(raw);
        case PlyType::Int16: return load<int16_t>(raw);
        case PlyType::UInt16: return load<uint16_t>(raw);
        case PlyType::Int32: return load<int32_t>(raw);
        case PlyType::UInt32: return load<uint32_t>(raw);
        case PlyType::Float32: return load<float>(raw);
        case PlyType::Float64: return load<double>(raw);
        }
        return 0.0;
    }

    double nextAscii()
    {
        while (position_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[position_])))
            ++position_;
        if (position_ >= text_.size())
            failFile(path_, "the PLY data ends early (truncated file?)");
        const char* start = text_.c_str() + position_;
        char* end = nullptr;
        double value = std::strtod(start, &end);
        if (end == start)
            failFile(path_, "cannot read a number at byte " + std::to_string(position_) + ": '" +
                                printable(std::string_view(start, std::min<size_t>(20, text_.size() - position_))) +
                                "'");
        position_ += size_t(end - start);
        return value;
    }

    template <typename T>
    static double load(const char* raw)
    {
        T value;
        std::memcpy(&value, raw, sizeof(T));
        return double(value);
    }

    const std::string& text_;
    size_t position_;
    bool binary_;
    const std::filesystem::path& path_;
};

int findProperty(const PlyElement& element, std::string_view name)
{
    for (size_t i = 0; i < element.properties.size(); ++i)
        if (element.properties[i].name == name && !element.properties[i].isList)
            return int(i);
    return -1;
}

Mesh readPly(const std::filesystem::path& path, const Progress& progress)
{
    std::string text = readRegularFile(path, kMaxMeshFileBytes, progress);
    PlyHeader header = parsePlyHeader(text, path);
    checkElementCounts(header, text.size() - header.dataOffset, path);
    PlyValues values(text, header.dataOffset, header.binary, path);
    Mesh mesh;
    Polygons polygons;
    bool vertexSeen = false;
    for (const PlyElement& element : header.elements) {
        bool isVertex = element.name == "vertex";
        bool isFace = element.name == "face";
        int columns[6] = {-1, -1, -1, -1, -1, -1};
        const char* names[6] = {"x", "y", "z", "nx", "ny", "nz"};
        for (int i = 0; i < 6; ++i)
            columns[i] = findProperty(element, names[i]);
        if (isVertex && (columns[0] < 0 || columns[1] < 0 || columns[2] < 0))
            failFile(path, "the vertex element has no x, y and z properties");
        bool hasNormals = isVertex && columns[3] >= 0 && columns[4] >= 0 && columns[5] >= 0;
        if (isVertex) {
            // A second vertex element would append positions with or without
            // normals of its own: found by fuzzing (tests/fuzz), refused.
            if (vertexSeen)
                failFile(path, "the PLY header has two vertex elements; a mesh has one");
            vertexSeen = true;
            mesh.positions.reserve(element.count);
            if (hasNormals)
                mesh.normals.reserve(element.count);
        }
        std::vector<double> row(element.properties.size());
        if (element.properties.empty())
            continue; // items of nothing: no bytes to read, however many
        for (uint64_t item = 0; item < element.count; ++item) {
            for (size_t p = 0; p < element.properties.size(); ++p) {
                const PlyProperty& property = element.properties[p];
                if (!property.isList) {
                    row[p] = values.next(property.type);
                    continue;
                }
                double count = values.next(property.countType);
                if (count < 0 || count > 1e6)
                    failFile(path, "element '" + element.name + "' " + std::to_string(item) + " has a list of " +
                                       std::to_string(count) + " items");
                bool isIndexList = isFace && (property.name == "vertex_indices" || property.name == "vertex_index");
                for (uint32_t i = 0; i < uint32_t(count); ++i) {
                    double index = values.next(property.type);
                    if (isIndexList) {
                        if (index < 0 || index > double(UINT32_MAX))
                            failFile(path, "face " + std::to_string(item) + " has vertex index " +
                                               std::to_string(index));
                        polygons.indices.push_back(uint32_t(index));
                    }
                }
                if (isIndexList)
                    polygons.sizes.push_back(uint32_t(count));
            }
            if (isVertex) {
                mesh.positions.emplace_back(row[columns[0]], row[columns[1]], row[columns[2]]);
                if (hasNormals)
                    mesh.normals.emplace_back(row[columns[3]], row[columns[4]], row[columns[5]]);
            }
        }
    }
    if (!vertexSeen)
        failFile(path, "the PLY file has no vertex element");
    setFaces(mesh, polygons, path);
    return mesh;
}

// ---- OBJ ----

// A 1-based (or negative, relative) OBJ index into a list of `count` items.
bool resolveObjIndex(std::string_view text, size_t count, uint32_t& index)
{
    long long value = 0;
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size() || value == 0)
        return false;
    long long resolved = value > 0 ? value - 1 : (long long)count + value;
    if (resolved < 0 || resolved >= (long long)count)
        return false;
    index = uint32_t(resolved);
    return true;
}

Mesh readObj(const std::filesystem::path& path, const Progress& progress)
{
    std::string text = readRegularFile(path, kMaxMeshFileBytes, progress);
    requireText(text, path);
    Mesh mesh;
    MeshArray<glm::vec3> normals;
    Polygons polygons;
    bool normalsMatchVertices = true;
    std::istringstream lines(text);
    std::string line;
    for (int lineNumber = 1; std::getline(lines, line); ++lineNumber) {
        std::istringstream words(line);
        std::string keyword;
        words >> keyword;
        auto bad = [&](const std::string& problem) {
            failFile(path, "line " + std::to_string(lineNumber) + " '" + printable(line) + "': " + problem);
        };
        if (keyword == "v" || keyword == "vn") {
            glm::vec3 value;
            if (!(words >> value.x >> value.y >> value.z))
                bad("expected three numbers");
            (keyword == "v" ? mesh.positions : normals).push_back(value);
        } else if (keyword == "f") {
            std::string corner;
            uint32_t size = 0;
            while (words >> corner) {
                std::string_view view(corner);
                size_t slash = view.find('/');
                uint32_t vertex = 0;
                if (!resolveObjIndex(view.substr(0, slash), mesh.positions.size(), vertex))
                    bad("vertex '" + std::string(view.substr(0, slash)) + "' is not one of the " +
                        std::to_string(mesh.positions.size()) + " vertices so far");
                size_t lastSlash = view.rfind('/');
                uint32_t normal = 0;
                bool hasNormal = slash != std::string_view::npos && lastSlash != slash &&
                                 resolveObjIndex(view.substr(lastSlash + 1), normals.size(), normal);
                normalsMatchVertices &= hasNormal && normal == vertex;
                polygons.indices.push_back(vertex);
                ++size;
            }
            if (size < 3)
                bad("a face needs at least 3 vertices");
            polygons.sizes.push_back(size);
        }
    }
    setFaces(mesh, polygons, path);
    if (normalsMatchVertices && normals.size() == mesh.positions.size())
        mesh.normals = std::move(normals);
    return mesh;
}

} // namespace

Mesh readMesh(const std::filesystem::path& path, const Progress& progress)
{
    std::string extension = lowerExtension(path);
    if (extension == ".ply")
        return readPly(path, progress);
    if (extension == ".obj")
        return readObj(path, progress);
    failFile(path, "unknown mesh extension '" + extension + "'; isoscope reads .ply and .obj");
}

} // namespace isoscope
