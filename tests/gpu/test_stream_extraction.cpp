// Streamed extraction (engine/extract/stream/): slab by slab, the same welded
// mesh as the in-core block or scan method, vertex for vertex.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <filesystem>

#include <unistd.h>
#include <fstream>
#include <limits>
#include <map>
#include <thread>
#include <tuple>

#include <zlib.h>

#include "core/error.h"
#include "core/host_import.h"
#include "extract/extraction_run.h"
#include "extract/stream/slab_read_back.h"
#include "extract/stream/streamed_extraction.h"
#include "extract_test_support.h"
#include "io/mesh_io.h"
#include "io/mesh_stream.h"
#include "volume/synthetic.h"
#include "volume/volume_source.h"

using namespace isoscope;
using namespace isoscope::test;

namespace {

// A mesh as a vertex numbering cannot change it: the vertices sorted by
// position (bit for bit) and each triangle as the sorted ranks of its
// corners' positions, rotated to start at the smallest (winding kept), the
// triangles sorted. Vertices at one position (an edge's end equal to the
// isovalue) share a rank, so their order among themselves cannot matter to
// the triangles.
struct CanonicalMesh {
    std::vector<std::array<uint32_t, 3>> positions; // bit patterns
    std::vector<glm::vec3> normals;                 // in the positions' order
    std::vector<std::array<uint32_t, 3>> triangles;
};

std::array<uint32_t, 3> bitsOf(const glm::vec3& p)
{
    std::array<uint32_t, 3> bits;
    std::memcpy(bits.data(), &p, 12);
    return bits;
}

CanonicalMesh canonical(const Mesh& mesh)
{
    CanonicalMesh result;
    std::vector<uint32_t> order(mesh.positions.size());
    for (uint32_t i = 0; i < order.size(); ++i)
        order[i] = i;
    // Vertices at one position (on a sample equal to the isovalue) in the order of their normals.
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
        return std::pair(bitsOf(mesh.positions[a]), bitsOf(mesh.normals[a])) <
               std::pair(bitsOf(mesh.positions[b]), bitsOf(mesh.normals[b]));
    });
    std::map<std::array<uint32_t, 3>, uint32_t> rank;
    for (uint32_t i : order) {
        result.positions.push_back(bitsOf(mesh.positions[i]));
        result.normals.push_back(mesh.normals[i]);
        rank.emplace(result.positions.back(), uint32_t(rank.size()));
    }
    for (size_t t = 0; t + 3 <= mesh.indices.size(); t += 3) {
        std::array<uint32_t, 3> tri;
        for (int k = 0; k < 3; ++k)
            tri[k] = rank.at(bitsOf(mesh.positions[mesh.indices[t + k]]));
        std::rotate(tri.begin(), std::min_element(tri.begin(), tri.end()), tri.end());
        result.triangles.push_back(tri);
    }
    std::sort(result.triangles.begin(), result.triangles.end());
    return result;
}

// Positions and triangles identical; normals, which the image's filtering
// takes at its own (the slab's) texture coordinates, as below, or bit for
// bit (`exactNormals`: the scan method's differences of the grid's samples).
void requireSameMesh(const Mesh& streamed, const Mesh& inCore, bool exactNormals = false, float worstNormal = 0.05f)
{
    REQUIRE(streamed.positions.size() == inCore.positions.size());
    REQUIRE(streamed.indices.size() == inCore.indices.size());
    REQUIRE(streamed.normals.size() == streamed.positions.size());
    CanonicalMesh a = canonical(streamed), b = canonical(inCore);
    REQUIRE(a.positions == b.positions);
    REQUIRE(a.triangles == b.triangles);
    if (exactNormals) {
        for (size_t i = 0; i < a.normals.size(); ++i) {
            INFO("vertex " << i << " of " << a.normals.size());
            REQUIRE(bitsOf(a.normals[i]) == bitsOf(b.normals[i]));
        }
        return;
    }
    // Vertices at one position (ranked alike) may pair either way: each
    // normal against the nearest of its position's. The image's filter
    // weighs texels at the slab image's coordinates, with its sub-texel
    // precision (8 bits on lavapipe at 256-bit vectors): nearly all normals
    // agree to 1e-4, a few near slab ends to a few degrees.
    float worst = 0.0f;
    size_t apart = 0;
    for (size_t i = 0, j = 0; i < a.normals.size(); i = j) {
        for (j = i; j < a.normals.size() && a.positions[j] == a.positions[i];)
            ++j;
        for (size_t k = i; k < j; ++k) {
            float nearest = 2.0f, back = 2.0f;
            for (size_t m = i; m < j; ++m) {
                nearest = std::min(nearest, glm::length(a.normals[k] - b.normals[m]));
                back = std::min(back, glm::length(b.normals[k] - a.normals[m]));
            }
            worst = std::max({worst, nearest, back});
            apart += std::max(nearest, back) > 1e-4f ? 1 : 0;
        }
    }
    INFO("largest normal difference " << worst << "; " << apart << " of " << a.normals.size() << " above 1e-4");
    REQUIRE(worst <= worstNormal);
    REQUIRE(apart <= a.normals.size() / 100);
}

Mesh inCoreMesh(const Volume& volume, float iso, const std::string& blockPass = "", const std::string& method = "block")
{
    ExtractOptions options;
    options.method = method;
    options.blockPass = blockPass;
    return extractIsosurface(gpuContext(), volume, iso, options).mesh;
}

ExtractOptions methodOptions(const std::string& method, const std::string& blockPass = "")
{
    ExtractOptions options;
    options.method = method;
    options.blockPass = blockPass;
    return options;
}

StreamReport streamWith(const ExtractOptions& options, MeshSink& sink, VolumeSource& source, float iso,
                        uint32_t slabLayers, uint64_t budget = 0)
{
    StreamOptions stream;
    stream.maxSlabLayers = slabLayers;
    stream.deviceBudget = budget;
    return extractStreamed(gpuContext(), source, iso, options, stream, sink);
}

// `blockPass`: the block method's triangle pass (ExtractOptions::blockPass).
StreamReport streamInto(MeshSink& sink, VolumeSource& source, float iso, uint32_t slabLayers, uint64_t budget = 0,
                        const std::string& blockPass = "", const std::string& method = "block")
{
    ExtractOptions options = methodOptions(method, blockPass);
    StreamOptions stream;
    stream.maxSlabLayers = slabLayers;
    stream.deviceBudget = budget;
    return extractStreamed(gpuContext(), source, iso, options, stream, sink);
}

// Streams `source` at several slab counts (2 to 20 where the volume has the
// layers) and requires the in-core mesh each time.
void requireStreamedSameAsInCore(VolumeSource& source, float iso, std::vector<uint32_t> slabCounts,
                                 const std::string& blockPass = "", const std::string& method = "block",
                                 float worstNormal = 0.05f)
{
    Volume whole = readWholeVolume(source);
    Mesh reference = inCoreMesh(whole, iso, blockPass, method);
    REQUIRE(!reference.indices.empty());
    uint32_t cells = whole.dims[2] - 1;
    for (uint32_t slabs : slabCounts) {
        uint32_t layers = (cells + slabs - 1) / slabs;
        INFO(method << ": " << whole.source << " at iso " << iso << ", " << slabs << " slabs of " << layers
                    << " cell layers");
        MeshCollector collector;
        StreamReport report = streamInto(collector, source, iso, layers, 0, blockPass, method);
        REQUIRE(report.method == method);
        REQUIRE(report.slabs.size() == (cells + layers - 1) / layers);
        REQUIRE(report.vertexCount == reference.positions.size());
        for (const SlabStats& slab : report.slabs) // every slab's mesh came back and was welded
            CHECK((slab.weldMs > 0 && slab.downloadMs > 0));
        // Each plane read once: the 3 a slab shares with the one before are
        // copied on the device (a last slab of one layer reads its top plane again).
        // (Planes of whole words only: others upload the shared planes again.)
        uint64_t planeBytes = whole.byteSize() / whole.dims[2];
        if (planeBytes % 4 == 0) {
            CHECK(report.bytesRead >= report.volumeBytes);
            CHECK(report.bytesRead <= report.volumeBytes + planeBytes);
            CHECK((report.overlapBytesCopied > 0) == (report.slabs.size() > 1));
        }
        CHECK(report.bytesUploaded > 0);
        requireSameMesh(collector.mesh(), reference, method == "scan", worstNormal);
        REQUIRE_NO_VALIDATION_MESSAGES();
    }
}

// Noise in layers 30 to 36 of 64 and nothing elsewhere: the slabs there make most of the mesh.
std::unique_ptr<VolumeSource> noiseInSixLayers(Volume& grid)
{
    grid.dims = {24, 24, 64};
    grid.type = ScalarType::Float32;
    grid.source = "noise in 6 layers";
    return makeCallbackSource(grid, [](uint32_t first, uint32_t count, std::byte* out) {
        auto* values = reinterpret_cast<float*>(out);
        for (uint32_t z = first; z < first + count; ++z)
            for (uint32_t i = 0; i < 24 * 24; ++i) {
                uint32_t h = (i + 1) * 2654435761u ^ (z + 7) * 40503u;
                h ^= h >> 13;
                *values++ = z >= 30 && z <= 36 ? float(h * 0x9E3779B9u >> 8) / float(1 << 24) : 0.0f;
            }
    });
}

// A budget that holds slabs of 8 layers and a third of the mesh with its
// read-back, never the whole mesh: the mesh streams to the host slab by
// slab, and the noisy slabs are split. `importReadBack`: the meshes come
// back into imported host pages (else, on lavapipe, device memory).
void requireMeshStreamedUnderBudget(const std::string& method, bool importReadBack = true)
{
    Volume grid;
    auto noise = noiseInSixLayers(grid);
    Volume whole = readWholeVolume(*noise);
    Mesh reference = inCoreMesh(whole, 0.5f, "", method);
    uint64_t meshBytes = reference.positions.size() * sizeof(GpuMeshVertex) + reference.indices.size() * 4;
    // Lavapipe maps its device memory for the host: the mesh's read-back
    // copy (vertices, indices and an edge code a vertex) is device memory too.
    uint64_t readBackBytes = meshBytes + reference.positions.size() * 4;
    uint64_t held = gpuContext().allocator().currentDeviceBytes();
    std::unique_ptr<SlabMethod> slabs = createSlabMethod(gpuContext(), grid, methodOptions(method), 1 << 20);
    uint64_t budget = held + streamSlabBytes(*slabs, grid, 8) + (meshBytes + readBackBytes) / 3;
    INFO(method << ": mesh " << meshBytes << " bytes, budget " << budget << " of which " << held
                << " held before; read-back imported: " << importReadBack);
    REQUIRE(budget < held + meshBytes + readBackBytes);
    MeshCollector collector;
    // Slabs of at most 8 layers: the budget alone would allow more where
    // staging is host memory (not counted), and fewer slabs split less.
    StreamOptions stream;
    stream.maxSlabLayers = 8;
    stream.deviceBudget = budget;
    stream.importReadBack = importReadBack;
    StreamReport report = extractStreamed(gpuContext(), *noise, 0.5f, methodOptions(method), stream, collector);
    CHECK(report.readBackImported ==
          (importReadBack && canImportHostMemory(gpuContext(), VK_BUFFER_USAGE_TRANSFER_DST_BIT)));
    CHECK(report.peakDeviceBytes <= budget);
    CHECK(report.slabs.size() >= 4);
    CHECK(report.slabsSplit > 0);
    requireSameMesh(collector.mesh(), reference, method == "scan");
    REQUIRE_NO_VALIDATION_MESSAGES();
}

} // namespace

TEST_CASE("streamed extraction gives the in-core mesh on synthetic fields, from 2 to 20 slabs", "[stream]")
{
    // Both triangle passes of the block method (large slabs take the row pass).
    const std::string pass = GENERATE(as<std::string>{}, "cells", "rows");
    auto cayley = openSyntheticSource("cayley:23x19x41");
    requireStreamedSameAsInCore(*cayley, -0.012f, {2, 3, 7, 20}, pass);
    auto gyroid = openSyntheticSource("gyroid:17x21x27");
    requireStreamedSameAsInCore(*gyroid, 0.3f, {2, 5, 13}, pass);
}

TEST_CASE("streamed extraction gives the in-core mesh on 8-bit data at integer isovalues (vertices on samples)",
          "[stream]")
{
    // Integer isovalues on bytes put vertices exactly on samples, several on one point.
    auto sphere = openSyntheticSource("sphere:21x18x33", ScalarType::UInt8);
    for (float iso : {200.0f, 230.0f})
        requireStreamedSameAsInCore(*sphere, iso, {2, 4, 11, 16});
}

TEST_CASE("a gzip NRRD streams, inflated slab by slab, into the in-core mesh", "[stream]")
{
    Volume whole = readWholeVolume(*openSyntheticSource("sphere:21x18x33", ScalarType::UInt8));
    z_stream stream{};
    REQUIRE(deflateInit2(&stream, 6, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY) == Z_OK); // 31: gzip
    std::vector<Bytef> gzip(deflateBound(&stream, uLong(whole.data.size())) + 32);
    stream.next_in = reinterpret_cast<Bytef*>(whole.data.data());
    stream.avail_in = uInt(whole.data.size());
    stream.next_out = gzip.data();
    stream.avail_out = uInt(gzip.size());
    REQUIRE(deflate(&stream, Z_FINISH) == Z_STREAM_END);
    gzip.resize(stream.total_out);
    deflateEnd(&stream);
    std::filesystem::path dir = std::filesystem::temp_directory_path() / ("isoscope-stream-gzip-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    std::filesystem::path path = dir / "sphere.nrrd";
    {
        std::ofstream file(path, std::ios::binary | std::ios::trunc);
        file << "NRRD0004\ntype: uint8\ndimension: 3\nsizes: 21 18 33\nencoding: gzip\n\n";
        file.write(reinterpret_cast<const char*>(gzip.data()), std::streamsize(gzip.size()));
    }
    auto source = openFileSource(path);
    REQUIRE(readWholeVolume(*source).data == whole.data);
    requireStreamedSameAsInCore(*source, 200.0f, {2, 5, 16});
    std::filesystem::remove_all(dir);
}

TEST_CASE("streamed extraction gives the in-core mesh on the real volumes", "[stream][datasets]")
{
    std::filesystem::path dir = datasetsDir();
    if (!std::filesystem::exists(dir / "MANIFEST.md")) {
        WARN("skipped: no datasets at " << dir.string());
        return;
    }
    auto anatomical = openFileSource(dir / "anatomical_33x41x25_int16.nhdr");
    requireStreamedSameAsInCore(*anatomical, 5000.5f, {2, 6, 12});
    auto fmri = openFileSource(dir / "fmri_128x96x24_int16.nhdr");
    requireStreamedSameAsInCore(*fmri, 300.0f, {3, 8});
    auto engine = openFileSource(dir / "engine_256x256x128_uint8.nhdr");
    requireStreamedSameAsInCore(*engine, 150.0f, {2, 9});
}

TEST_CASE("staging made in pieces of a few planes, each imported on its own, gives the in-core mesh, block and scan",
          "[stream]")
{
    struct Case {
        std::unique_ptr<VolumeSource> source;
        float iso;
    };
    std::vector<Case> cases;
    cases.push_back({openSyntheticSource("cayley:23x19x41"), -0.012f});
    cases.push_back({openSyntheticSource("sphere:21x18x33", ScalarType::UInt8), 200.0f});
    std::filesystem::path anatomical = datasetsDir() / "anatomical_33x41x25_int16.nhdr";
    if (std::filesystem::exists(anatomical))
        cases.push_back({openFileSource(anatomical), 5000.5f});
    for (Case& c : cases)
        for (const std::string method : {"block", "scan"}) {
            Volume whole = readWholeVolume(*c.source);
            Mesh reference = inCoreMesh(whole, c.iso, "", method);
            REQUIRE(!reference.indices.empty());
            uint64_t planeTexels = uint64_t(whole.dims[0]) * whole.dims[1];
            // Slabs of 7 layers: images of 10 planes, in pieces of 3, 3, 3 and 1 (4 bytes a texel at most).
            for (uint64_t piecePlanes : {1, 3, 64}) {
                INFO(method << ": " << whole.source << " at iso " << c.iso << ", pieces of " << piecePlanes
                            << " planes");
                MeshCollector collector;
                StreamOptions stream;
                stream.maxSlabLayers = 7;
                std::unique_ptr<SlabMethod> slabs = createSlabMethod(gpuContext(), whole, methodOptions(method), 1 << 30);
                stream.stagingPieceBytes = planeTexels * slabs->texelBytes() * piecePlanes;
                StreamReport report = extractStreamed(gpuContext(), *c.source, c.iso, methodOptions(method), stream,
                                                      collector);
                uint32_t imagePlanes = std::min<uint32_t>(7 + 3, whole.dims[2]);
                uint64_t perPiece = std::min<uint64_t>(piecePlanes, imagePlanes);
                REQUIRE(report.stagingPieces == (imagePlanes + perPiece - 1) / perPiece);
                REQUIRE(report.slabs.size() == (whole.dims[2] - 1 + 6) / 7);
                REQUIRE(report.vertexCount == reference.positions.size());
                requireSameMesh(collector.mesh(), reference, method == "scan");
                REQUIRE_NO_VALIDATION_MESSAGES();
            }
        }
}

TEST_CASE("a device budget below the whole mesh streams it to the host slab by slab, splitting slabs whose mesh "
          "does not fit",
          "[stream]")
{
    requireMeshStreamedUnderBudget("block", true);
    requireMeshStreamedUnderBudget("block", false);
}

TEST_CASE("streamed scan extraction gives the in-core scan mesh, normals bit for bit, from 2 to 20 slabs",
          "[stream][scan]")
{
    auto cayley = openSyntheticSource("cayley:23x19x41");
    requireStreamedSameAsInCore(*cayley, -0.012f, {2, 3, 7, 20}, "", "scan");
    auto gyroid = openSyntheticSource("gyroid:17x21x27");
    requireStreamedSameAsInCore(*gyroid, 0.3f, {2, 5, 13}, "", "scan");
    // Integer isovalues on bytes put vertices exactly on samples, several on one point.
    auto sphere = openSyntheticSource("sphere:21x18x33", ScalarType::UInt8);
    for (float iso : {200.0f, 230.0f})
        requireStreamedSameAsInCore(*sphere, iso, {2, 4, 11, 16}, "", "scan");
}

TEST_CASE("streamed scan extraction gives the in-core scan mesh on the real volumes", "[stream][scan][datasets]")
{
    std::filesystem::path dir = datasetsDir();
    if (!std::filesystem::exists(dir / "MANIFEST.md")) {
        WARN("skipped: no datasets at " << dir.string());
        return;
    }
    auto anatomical = openFileSource(dir / "anatomical_33x41x25_int16.nhdr");
    requireStreamedSameAsInCore(*anatomical, 5000.5f, {2, 6, 12}, "", "scan");
    auto engine = openFileSource(dir / "engine_256x256x128_uint8.nhdr");
    requireStreamedSameAsInCore(*engine, 150.0f, {2, 9}, "", "scan");
}

TEST_CASE("the scan method streams its mesh to the host under a budget below it, splitting slabs", "[stream][scan]")
{
    requireMeshStreamedUnderBudget("scan");
}

TEST_CASE("the scan method's own slabs (bindings of a few planes) inside streamed slabs weld into the in-core mesh",
          "[stream][scan]")
{
    auto cayley = openSyntheticSource("cayley:23x19x41");
    Volume whole = readWholeVolume(*cayley);
    Mesh reference = inCoreMesh(whole, -0.012f, "", "scan");
    ExtractOptions options = methodOptions("scan");
    // Bindings of 32 KiB hold lists of 2048 occupied points (16 bytes
    // each): the method's own slabs are a few cell layers thick, so they
    // split each streamed slab of 7 or 20 layers.
    options.maxBindingBytes = 32 << 10;
    ExtractionReport inCore = extractIsosurface(gpuContext(), whole, -0.012f, options);
    uint64_t ownSlabs = 0;
    for (const auto& [name, count] : inCore.workCounts)
        if (name == "slabs")
            ownSlabs = count;
    REQUIRE(ownSlabs >= 40 / 6);
    for (uint32_t layers : {7u, 20u}) {
        INFO(layers << " cell layers a streamed slab");
        MeshCollector collector;
        StreamReport report = streamWith(options, collector, *cayley, -0.012f, layers);
        REQUIRE(report.slabs.size() == (40 + layers - 1) / layers);
        requireSameMesh(collector.mesh(), reference, true);
    }
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("streamed extraction skips NaN and infinite samples as the in-core extraction does, block and scan",
          "[stream][scan]")
{
    // Cayley with one sample in 37 NaN and one in 53 infinite, some on slab boundaries.
    auto cayley = openSyntheticSource("cayley:22x19x37");
    Volume grid = cayley->grid();
    auto holes = makeCallbackSource(grid, [&](uint32_t first, uint32_t count, std::byte* out) {
        cayley->readPlanes(first, count, out);
        auto* values = reinterpret_cast<float*>(out);
        uint64_t plane = uint64_t(grid.dims[0]) * grid.dims[1];
        for (uint64_t i = 0; i < plane * count; ++i) {
            uint64_t global = first * plane + i;
            if (global % 37 == 5)
                values[i] = std::numeric_limits<float>::quiet_NaN();
            else if (global % 53 == 11)
                values[i] = global % 2 ? std::numeric_limits<float>::infinity() : -std::numeric_limits<float>::infinity();
        }
    });
    requireStreamedSameAsInCore(*holes, -0.012f, {2, 5, 12}, "", "scan");
    // The block method: next to a non-finite sample its filtered
    // differences fall back to the grid's where they are not finite, and
    // whether a footprint takes in the neighbour with a zero weight depends
    // on the filter's sub-texel position, which differs between the slab's
    // image and the whole one (0.094 at most on lavapipe). Without the slab
    // ends' central differences (one-sided there before), 0.77.
    requireStreamedSameAsInCore(*holes, -0.012f, {3, 9}, "", "block", 0.15f);
}

TEST_CASE("streaming refuses the methods whose work spans the volume, naming --method, before reading", "[stream]")
{
    std::atomic<int> reads{0};
    Volume grid = makeSyntheticGrid("sphere:32");
    auto source = makeCallbackSource(grid, [&](uint32_t, uint32_t, std::byte*) { ++reads; });
    for (const char* method : {"histopyramid", "dual"}) {
        MeshCollector collector;
        REQUIRE_THROWS_WITH(streamInto(collector, *source, 0.5f, 0, 0, "", method),
                            Catch::Contains("not '" + std::string(method) + "'") &&
                                Catch::Contains("--method block or --method scan"));
    }
    REQUIRE(reads == 0);
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("a budget too small for one slab fails before any sample is read, with the numbers", "[stream]")
{
    std::atomic<int> reads{0};
    Volume grid = makeSyntheticGrid("sphere:64");
    auto source = makeCallbackSource(grid, [&](uint32_t, uint32_t, std::byte*) { ++reads; });
    MeshCollector collector;
    REQUIRE_THROWS_WITH(streamInto(collector, *source, 0.5f, 0, 100000),
                        Catch::Contains("a slab of one cell layer needs") && Catch::Contains("--device-budget"));
    REQUIRE(reads == 0);
    REQUIRE_NO_VALIDATION_MESSAGES();
}

// `source`'s planes until a read reaches past plane `last`, where it fails as a crashed simulation would.
std::unique_ptr<VolumeSource> failingAfterPlane(VolumeSource& source, uint32_t last)
{
    return makeCallbackSource(source.grid(), [&source, last](uint32_t first, uint32_t count, std::byte* out) {
        if (first + count > last)
            fail("simulation step crashed at plane " + std::to_string(first + count));
        source.readPlanes(first, count, out);
    });
}

TEST_CASE("a source that fails at slab k ends with its error and leaves no mesh file", "[stream]")
{
    auto sphere = openSyntheticSource("sphere:20x20x40");
    Volume grid = sphere->grid();
    auto failing = failingAfterPlane(*sphere, 25);
    std::filesystem::path dir = std::filesystem::temp_directory_path() / ("isoscope-stream-failure-" + std::to_string(::getpid())); // ctest runs two sizes at once
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    for (const char* name : {"failed.ply", "failed.stl"}) {
        std::filesystem::path path = dir / name;
        std::filesystem::remove(path);
        {
            auto writer = openStreamedMeshWriter(path, grid, MeshPlacement::World, IfExists::Replace);
            REQUIRE_THROWS_WITH(streamInto(*writer, *failing, 0.5f, 4), Catch::Contains("simulation step crashed"));
        }
        CHECK(!std::filesystem::exists(path));
        CHECK(std::distance(std::filesystem::directory_iterator(dir), std::filesystem::directory_iterator{}) == 0);
    }
    std::filesystem::remove_all(dir);
    REQUIRE_NO_VALIDATION_MESSAGES();
}

// A sink slow enough that earlier slabs still weld when a later slab's read fails.
class SlowSink final : public MeshSink {
public:
    void addVertices(std::span<const GpuMeshVertex> vertices) override
    {
        ++active;
        std::this_thread::sleep_for(std::chrono::milliseconds(40));
        collector.addVertices(vertices);
        ++calls;
        --active;
    }
    void addTriangles(std::span<const uint32_t> indices) override { collector.addTriangles(indices); }
    MeshCollector collector;
    std::atomic<int> active{0}, calls{0};
};

// Slabs of 2 layers (many parts for a slow sink to fall behind on), the read-back imported or not.
StreamOptions twoLayerSlabs(bool importReadBack)
{
    StreamOptions stream;
    stream.maxSlabLayers = 2;
    stream.importReadBack = importReadBack;
    return stream;
}

TEST_CASE("a source that fails while earlier slabs still weld returns its error after their welds", "[stream]")
{
    auto sphere = openSyntheticSource("sphere:20x20x40");
    auto failing = failingAfterPlane(*sphere, 30);
    for (bool importReadBack : {true, false}) {
        INFO("read-back buffers imported: " << importReadBack);
        SlowSink sink;
        StreamOptions stream = twoLayerSlabs(importReadBack);
        REQUIRE_THROWS_WITH(extractStreamed(gpuContext(), *failing, 0.5f, methodOptions("block", ""), stream, sink),
                            Catch::Contains("simulation step crashed"));
        // No weld still running on the slabs' read-back memory, none starting after.
        CHECK(sink.active == 0);
        int calls = sink.calls;
        CHECK(calls > 0);
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        CHECK(sink.calls == calls);
    }
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("a sink slower than the slabs grows the read-back ring rather than wait, and gets the in-core mesh",
          "[stream]")
{
    auto sphere = openSyntheticSource("sphere:20x20x40");
    Volume whole = readWholeVolume(*sphere);
    Mesh reference = inCoreMesh(whole, 0.5f, "", "block");
    for (bool importReadBack : {true, false}) {
        INFO("read-back buffers imported: " << importReadBack);
        SlowSink sink;
        StreamOptions stream = twoLayerSlabs(importReadBack);
        StreamReport report =
            extractStreamed(gpuContext(), *sphere, 0.5f, methodOptions("block", ""), stream, sink);
        REQUIRE(report.slabs.size() >= 10);
        // Each weld sleeps 40 ms in the sink, far longer than a slab of 2 layers takes: in host memory (imported
        // or the driver's) the ring grows to its limit; in device memory (lavapipe without import) each part is
        // welded before the next.
        if (report.readBackImported)
            CHECK_FALSE(report.readBackOnDevice);
        CHECK(report.readBackSlots == (report.readBackOnDevice ? SlabReadBack::kSlots : SlabReadBack::kMaxSlots));
        CHECK(sink.active == 0);
        requireSameMesh(sink.collector.mesh(), reference, false);
    }
    REQUIRE_NO_VALIDATION_MESSAGES();
}

// A sink that fails at its `failAt`th part, as a full disk would.
class FailingSink final : public MeshSink {
public:
    explicit FailingSink(int failAt) : failAt_(failAt) {}
    void addVertices(std::span<const GpuMeshVertex>) override
    {
        if (++parts == failAt_)
            fail("disk full while writing part " + std::to_string(parts.load()));
    }
    void addTriangles(std::span<const uint32_t>) override {}
    std::atomic<int> parts{0};

private:
    int failAt_;
};

TEST_CASE("a sink that fails mid-stream ends the extraction with its error, and takes no part after it", "[stream]")
{
    auto sphere = openSyntheticSource("sphere:20x20x40");
    for (bool importReadBack : {true, false}) {
        INFO("read-back buffers imported: " << importReadBack);
        FailingSink sink(3);
        StreamOptions stream;
        stream.maxSlabLayers = 2;
        stream.importReadBack = importReadBack;
        REQUIRE_THROWS_WITH(extractStreamed(gpuContext(), *sphere, 0.5f, methodOptions("block", ""), stream, sink),
                            Catch::Contains("disk full while writing part 3"));
        // The welds after the failed one end with its error instead of writing.
        CHECK(sink.parts == 3);
    }
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("streamed PLY and STL files hold the in-core mesh", "[stream]")
{
    auto torus = openSyntheticSource("torus:24x22x30");
    Volume whole = readWholeVolume(*torus);
    Mesh reference = inCoreMesh(whole, 0.04f);
    std::filesystem::path dir = std::filesystem::temp_directory_path() / ("isoscope-stream-test-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    std::filesystem::path ply = dir / "torus.ply", stl = dir / "torus.stl";
    for (const auto& path : {ply, stl}) {
        auto writer = openStreamedMeshWriter(path, whole, MeshPlacement::World, IfExists::Replace);
        streamInto(*writer, *torus, 0.04f, 5);
        writer->commit();
    }
    Mesh fromPly = readMesh(ply);
    requireSameMesh(fromPly, reference);
    // Binary STL: 80 bytes, the triangle count, 50 bytes a triangle.
    CHECK(std::filesystem::file_size(stl) == 84 + 50 * reference.indices.size() / 3);
    std::filesystem::remove_all(dir);
    REQUIRE_NO_VALIDATION_MESSAGES();
}
