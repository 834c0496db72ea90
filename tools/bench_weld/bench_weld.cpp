// The host side of a streamed extraction's weld alone (no GPU): how long
// SlabWelder::addSlab takes a slab, into a MeshCollector ("collect"), a PLY
// written as it goes ("ply", under /tmp) or a sink that drops everything
// ("none"). `isoscope_bench_weld SINK [VERTICES] [SLABS] [PLANE] [REPEAT]`
// makes SLABS synthetic slab meshes shaped like the block method's (VERTICES
// vertices a slab, twice as many triangles naming nearby vertices, PLANE
// vertices on each shared plane: the first plane's among the first 3% of a
// slab's vertices, the last plane's among the last 3%), welds them REPEAT
// times (default 5) and prints JSON with the median ms a slab.
// Defaults: the 2048^3 uint8 gyroid file of docs/BENCHMARKS.md (18 slabs of
// 2.19 M vertices, 4.38 M triangles).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "core/error.h"
#include "extract/stream/slab_weld.h"
#include "io/mesh_stream.h"
#include "mesh/mesh_sink.h"

using namespace isoscope;

namespace {

struct Slab {
    std::vector<GpuMeshVertex> vertices;
    std::vector<uint32_t> indices, codes;
};

class DropSink final : public MeshSink {
public:
    void addVertices(std::span<const GpuMeshVertex> vertices) override { count += vertices.size(); }
    void addTriangles(std::span<const uint32_t> indices) override { count += indices.size(); }
    uint64_t count = 0;
};

// Slab k's first plane holds the codes k * plane .. (k+1) * plane - 1, its
// last plane the next slab's, so that consecutive slabs share them.
Slab makeSlab(uint32_t k, size_t vertexCount, size_t plane, std::mt19937& random)
{
    Slab slab;
    slab.vertices.resize(vertexCount);
    slab.codes.assign(vertexCount, kNoEdgeCode);
    for (size_t v = 0; v < vertexCount; ++v)
        slab.vertices[v] = {{float(v % 2048), float(v / 2048 % 2048), float(k)}, {0.0f, 0.0f, 1.0f}};
    size_t band = std::max<size_t>(vertexCount * 3 / 100, plane);
    std::vector<size_t> first(band), last(band);
    for (size_t i = 0; i < band; ++i) {
        first[i] = i;
        last[i] = vertexCount - band + i;
    }
    std::shuffle(first.begin(), first.end(), random);
    std::shuffle(last.begin(), last.end(), random);
    for (size_t i = 0; i < plane; ++i) {
        if (k > 0)
            slab.codes[first[i]] = uint32_t(k * plane + i);
        slab.codes[last[i]] = uint32_t((k + 1) * plane + i) | kLastPlaneBit;
    }
    slab.indices.resize(vertexCount * 6);
    std::uniform_int_distribution<int> near(-64, 64);
    for (size_t t = 0; t < vertexCount * 2; ++t)
        for (size_t c = 0; c < 3; ++c)
            slab.indices[3 * t + c] =
                uint32_t(std::clamp<int64_t>(int64_t(t / 2) + near(random), 0, int64_t(vertexCount) - 1));
    return slab;
}

} // namespace

int main(int argc, char** argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s collect|ply|none [VERTICES] [SLABS] [PLANE] [REPEAT]\n", argv[0]);
        return 2;
    }
    try {
        std::string sinkKind = argv[1];
        size_t vertexCount = argc > 2 ? std::stoull(argv[2]) : 2190000;
        uint32_t slabCount = argc > 3 ? uint32_t(std::stoul(argv[3])) : 18;
        size_t plane = argc > 4 ? std::stoull(argv[4]) : 12000;
        int repeat = argc > 5 ? std::stoi(argv[5]) : 5;
        if (sinkKind != "collect" && sinkKind != "ply" && sinkKind != "none")
            fail("isoscope_bench_weld: the sink is collect, ply or none, not '" + sinkKind + "'");
        std::mt19937 random(7);
        std::vector<Slab> slabs;
        for (uint32_t k = 0; k < slabCount; ++k)
            slabs.push_back(makeSlab(k, vertexCount, plane, random));
        Volume grid;
        grid.dims = {2048, 2048, slabCount + 1};
        std::vector<double> perSlab, totals;
        std::vector<uint32_t> indices;
        for (int r = 0; r < repeat; ++r) {
            MeshCollector collector;
            DropSink drop;
            std::unique_ptr<StreamedMeshWriter> writer;
            MeshSink* sink = &drop;
            if (sinkKind == "collect")
                sink = &collector;
            if (sinkKind == "ply") {
                writer = openStreamedMeshWriter(std::filesystem::temp_directory_path() / "isoscope_bench_weld.ply",
                                                grid, MeshPlacement::IndexSpace, IfExists::Replace);
                sink = writer.get();
            }
            SlabWelder welder(*sink);
            double total = 0;
            for (uint32_t k = 0; k < slabCount; ++k) {
                indices = slabs[k].indices; // the weld renumbers them in place, as in the read-back: not timed
                auto slabStart = std::chrono::steady_clock::now();
                welder.addSlab(slabs[k].vertices, indices, slabs[k].codes, double(k + 1) / slabCount);
                perSlab.push_back(
                    std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - slabStart).count());
                total += perSlab.back();
            }
            totals.push_back(total);
            uint64_t expected = uint64_t(slabCount) * vertexCount - uint64_t(slabCount - 1) * plane;
            if (welder.vertexCount() != expected)
                fail("isoscope_bench_weld: welded " + std::to_string(welder.vertexCount()) + " vertices, expected " +
                     std::to_string(expected));
        }
        std::sort(perSlab.begin(), perSlab.end());
        std::sort(totals.begin(), totals.end());
        std::printf("{\"sink\": \"%s\", \"vertices_per_slab\": %zu, \"slabs\": %u, \"plane\": %zu, \"repeat\": %d, "
                    "\"median_slab_ms\": %.3f, \"max_slab_ms\": %.3f, \"median_total_ms\": %.3f}\n",
                    sinkKind.c_str(), vertexCount, slabCount, plane, repeat, perSlab[perSlab.size() / 2],
                    perSlab.back(), totals[totals.size() / 2]);
        std::filesystem::remove(std::filesystem::temp_directory_path() / "isoscope_bench_weld.ply");
        return 0;
    } catch (const Error& error) {
        std::fprintf(stderr, "%s\n", error.what());
        return 1;
    }
}
