// glTF 2.0 (https://registry.khronos.org/glTF/specs/2.0/glTF-2.0.html): one
// mesh of one triangle primitive with POSITION, NORMAL (when the mesh has
// normals) and 32-bit indices, as .gltf + .bin or as one .glb.
//
// Written with nlohmann::json rather than tinygltf: the document is a dozen
// fixed objects, and tinygltf would bring its image codecs and a large
// header-only implementation into the engine for them.
#include <algorithm>
#include <bit>
#include <cmath>
#include <string>
#include <vector>

#include <glm/geometric.hpp>
#include <nlohmann/json.hpp>

#include "core/error.h"
#include "io/mesh_file_support.h"
#include "io/mesh_io.h"

namespace isoscope {

static_assert(std::endian::native == std::endian::little, "glTF buffers are little-endian");

namespace {

constexpr int arrayBuffer = 34962, elementArrayBuffer = 34963; // bufferView targets
constexpr int floatComponent = 5126, unsignedIntComponent = 5125;

// The spec requires unit NORMALs (validators allow 5e-4). A vertex whose
// normal is not one (zero where the gradient vanished, NaN) gets the
// area-weighted normal of its triangles instead.
std::vector<glm::vec3> unitNormals(const Mesh& mesh, const std::vector<uint32_t>& triangles)
{
    std::vector<glm::vec3> normals(mesh.normals.begin(), mesh.normals.end());
    auto isUnit = [](glm::vec3 n) { return std::fabs(glm::length(n) - 1.0f) < 1e-4f; };
    if (std::all_of(normals.begin(), normals.end(), isUnit))
        return normals;
    std::vector<glm::vec3> fromFaces(normals.size(), glm::vec3(0.0f));
    for (size_t t = 0; t + 2 < triangles.size(); t += 3) {
        glm::vec3 a = mesh.positions[triangles[t]], b = mesh.positions[triangles[t + 1]],
                  c = mesh.positions[triangles[t + 2]];
        glm::vec3 areaNormal = glm::cross(b - a, c - a);
        for (int corner = 0; corner < 3; ++corner)
            fromFaces[triangles[t + corner]] += areaNormal;
    }
    for (size_t v = 0; v < normals.size(); ++v) {
        if (isUnit(normals[v]))
            continue;
        float length = glm::length(fromFaces[v]);
        normals[v] = length > 0.0f && std::isfinite(length) ? fromFaces[v] / length : glm::vec3(0.0f, 0.0f, 1.0f);
    }
    return normals;
}

template <typename Values> // a std::vector or a mesh's MeshArray
void appendArray(std::vector<char>& buffer, const Values& values)
{
    const char* raw = reinterpret_cast<const char*>(values.data());
    buffer.insert(buffer.end(), raw, raw + values.size() * sizeof(typename Values::value_type));
    buffer.resize((buffer.size() + 3) / 4 * 4, 0); // every view starts 4-byte aligned
}

struct GltfDocument {
    nlohmann::json json;
    std::vector<char> buffer;
};

// binUri: the .bin's name for .gltf, empty for .glb (the buffer is the BIN chunk).
GltfDocument buildDocument(const Mesh& mesh, const std::string& binUri)
{
    GltfDocument document;
    nlohmann::json& json = document.json;
    json["asset"] = {{"version", "2.0"}, {"generator", "isoscope"}};
    json["scene"] = 0;
    std::vector<uint32_t> triangles = triangleIndices(mesh);
    if (triangles.empty()) { // glTF allows no empty accessor or buffer: an empty scene
        json["scenes"] = {{{"nodes", nlohmann::json::array()}}};
        return document;
    }
    json["scenes"] = {{{"nodes", {0}}}};
    json["nodes"] = {{{"mesh", 0}}};

    glm::vec3 low = mesh.positions.front(), high = low;
    for (const glm::vec3& p : mesh.positions) {
        low = glm::min(low, p);
        high = glm::max(high, p);
    }
    auto view = [&](size_t offset, int target) {
        json["bufferViews"].push_back(
            {{"buffer", 0}, {"byteOffset", offset}, {"byteLength", document.buffer.size() - offset}, {"target", target}});
    };
    nlohmann::json attributes;
    size_t offset = document.buffer.size();
    appendArray(document.buffer, mesh.positions);
    view(offset, arrayBuffer);
    json["accessors"].push_back({{"bufferView", 0},
                                 {"componentType", floatComponent},
                                 {"count", mesh.positions.size()},
                                 {"type", "VEC3"},
                                 {"min", {low.x, low.y, low.z}},
                                 {"max", {high.x, high.y, high.z}}});
    attributes["POSITION"] = 0;
    if (!mesh.normals.empty()) {
        offset = document.buffer.size();
        appendArray(document.buffer, unitNormals(mesh, triangles));
        view(offset, arrayBuffer);
        json["accessors"].push_back(
            {{"bufferView", 1}, {"componentType", floatComponent}, {"count", mesh.normals.size()}, {"type", "VEC3"}});
        attributes["NORMAL"] = 1;
    }
    offset = document.buffer.size();
    appendArray(document.buffer, triangles);
    view(offset, elementArrayBuffer);
    size_t indexAccessor = json["accessors"].size();
    json["accessors"].push_back({{"bufferView", indexAccessor},
                                 {"componentType", unsignedIntComponent},
                                 {"count", triangles.size()},
                                 {"type", "SCALAR"}});
    json["meshes"] = {{{"primitives", {{{"attributes", attributes}, {"indices", indexAccessor}, {"mode", 4}}}}}};
    json["buffers"] = {{{"byteLength", document.buffer.size()}}};
    if (!binUri.empty())
        json["buffers"][0]["uri"] = binUri;
    return document;
}

// A file name as a relative URI: unreserved characters as they are, others %XX.
std::string uriOf(const std::string& name)
{
    std::string uri;
    for (unsigned char c : name) {
        if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
            uri += char(c);
        } else {
            char escaped[4];
            std::snprintf(escaped, sizeof(escaped), "%%%02X", c);
            uri += escaped;
        }
    }
    return uri;
}

} // namespace

void writeGltf(const Mesh& mesh, const std::filesystem::path& path, const WriteOptions& options)
{
    checkMeshForWriting(mesh, path);
    std::filesystem::path binPath = gltfBufferFile(path);
    GltfDocument document = buildDocument(mesh, uriOf(binPath.filename().string()));
    std::string text = document.json.dump(1);
    if (document.buffer.empty()) { // an empty scene has no buffer, so no .bin
        writeFileParts(path, options, {text});
        return;
    }
    // As writeNrrd does for an .nhdr and its .raw: both files are checked and
    // written before either appears, so a refused or failed .gltf leaves no
    // .bin behind, nor the reverse.
    checkOutputPath(path, options.ifExists);
    OutputFile bin(binPath, options.ifExists);
    bin.reportProgress(options.progress, document.buffer.size()); // the JSON beside it is small
    bin.write(document.buffer.data(), document.buffer.size());
    OutputFile json(path, options.ifExists);
    json.write(text);
    bin.commit();
    try {
        json.commit();
    } catch (const Error&) {
        std::error_code ignored;
        std::filesystem::remove(binPath, ignored); // written by this call just now
        throw;
    }
}

std::filesystem::path gltfBufferFile(const std::filesystem::path& path)
{
    return std::filesystem::path(path).replace_extension(".bin");
}

std::vector<std::filesystem::path> meshOutputFiles(const std::filesystem::path& path)
{
    if (lowerExtension(path) == ".gltf")
        return {path, gltfBufferFile(path)};
    return {path};
}

void writeGlb(const Mesh& mesh, const std::filesystem::path& path, const WriteOptions& options)
{
    checkMeshForWriting(mesh, path);
    GltfDocument document = buildDocument(mesh, "");
    std::string text = document.json.dump();
    text.resize((text.size() + 3) / 4 * 4, ' '); // the JSON chunk is padded with spaces
    uint64_t total = 12 + 8 + text.size() + (document.buffer.empty() ? 0 : 8 + document.buffer.size());
    if (total > UINT32_MAX)
        fail("cannot write " + path.string() + ": " + std::to_string(total) +
             " bytes; a .glb holds at most 4 GiB (write .gltf + .bin instead)");
    std::vector<char> header, jsonChunk, binChunk;
    appendBytes(header, uint32_t(0x46546C67)); // "glTF"
    appendBytes(header, uint32_t(2));
    appendBytes(header, uint32_t(total));
    appendBytes(jsonChunk, uint32_t(text.size()));
    appendBytes(jsonChunk, uint32_t(0x4E4F534A)); // "JSON"
    if (!document.buffer.empty()) {
        appendBytes(binChunk, uint32_t(document.buffer.size()));
        appendBytes(binChunk, uint32_t(0x004E4942)); // "BIN\0"
    }
    writeFileParts(path, options, {header, jsonChunk, text, binChunk, document.buffer});
}

} // namespace isoscope
