#pragma once
// One entry point for every isosurface extraction method, and the report the
// CLI's --stats JSON is made from. Methods: "cpu" (the reference, see
// cpu/marching_cubes.h); the GPU methods join here as they land.
#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "mesh/mesh.h"
#include "volume/volume.h"

namespace isoscope {

struct ExtractOptions {
    std::string method = "cpu"; // or "auto" (extract/auto_method.h)
    std::string methodChoice;   // why "auto" chose `method` (set when it did)
    uint32_t repeat = 1; // timings are medians over this many runs
    uint32_t warmup = 0; // GPU methods: untimed runs before the timed ones
    double warmupMs = 0; // ... and for at least this long (core/warm_up.h)
    bool weld = true;    // GPU methods: one vertex per intersected grid edge; false keeps each method's duplicates
    std::array<uint32_t, 3> blockSize{8, 4, 4}; // block method: voxels per block (the paper's default)
    // block method: its triangle pass with an invocation per cell ("cells"),
    // per row of a block ("rows"), or ("") the one measured faster for the
    // volume's size (block_extractor.cpp); tests name one to cover both.
    std::string blockPass;
    // block method, benchmarks: evaluate this synthetic field (e.g. "cayley") in
    // the shader instead of reading a stored volume; the Volume gives its grid.
    std::string analyticField;
    uint64_t budgetBytes = 0; // scan method: device bytes it may use (0: the device's budget)
    // scan method, tests: bytes one storage binding may cover (0: the
    // device's limit), to run small volumes through the per-slab volume
    // ranges that volumes larger than one binding take.
    uint64_t maxBindingBytes = 0;
    // scan method, tests and benchmarks: tiles a count workgroup walks up (1
    // to 16) and invocations of a list workgroup; 0: the rule for the slab's
    // size (scanColumnTiles, scanListWorkgroup in extract/scan/slab_plan.h).
    uint32_t scanColumnTiles = 0;
    uint32_t scanListWorkgroup = 0;
    // block and scan methods: built for the z-slabs of streamed extraction (extract/stream/): writes each
    // vertex's edge code and takes GpuExtractor::placeSlab.
    bool streamedSlabs = false;
    // dual method: the halfedge structure (ExtractionReport::halfedges), and
    // the vertex and face colouring (which needs the halfedges).
    bool halfedges = false;
    bool colors = false;
    // dual method, tests: the edge hash table's first size in buckets (0: a
    // guess from the grid), to make it overflow and grow.
    uint64_t hashBuckets = 0;
    // histopyramid method, tests: the level-2 layers each base-pass workgroup
    // walks up z (0: histoPyramidBaseInColumns's and histoPyramidBaseColumn's
    // choice; small volumes take the runs pass), to walk columns on small volumes.
    uint32_t histoPyramidColumn = 0;
    bool readBack = true;     // GPU methods: false leaves ExtractionReport::mesh empty (benchmarks)
    // GPU methods, timed runs: true treats every run as a new volume (the
    // block method recomputes its value ranges); false times what an
    // isovalue change costs on a volume already seen.
    bool volumeChangesEachRun = true;
};

struct ExtractionReport {
    std::string method;
    std::string methodChoice;               // set when "auto" chose the method: why
    std::string device;                     // "cpu" for the CPU reference
    std::optional<uint32_t> subgroupSize;   // GPU methods only
    Mesh mesh;                              // empty when options.readBack is false
    uint64_t vertexCount = 0, faceCount = 0; // as counted (also without read-back)
    std::vector<std::pair<std::string, double>> gpuMsPerPass; // medians; empty for CPU methods
    std::optional<double> totalGpuMs;       // median of the per-run totals
    double cpuMs = 0.0;                     // median wall-clock time of the CPU method
    uint64_t auxDeviceBytes = 0;            // device bytes beyond the input volume, output mesh and tables
    uint64_t transientDeviceBytes = 0;      // GPU methods: the render graph's transients (part of auxDeviceBytes)
    uint64_t tableDeviceBytes = 0;          // constant lookup tables (GpuExtractor::tableBytes)
    uint64_t peakDeviceBytes = 0;
    uint32_t repeat = 1;
    uint32_t overflowRetries = 0;           // GPU methods: extractions redone with larger buffers
    std::vector<std::pair<std::string, uint64_t>> workCounts; // GPU methods: GpuExtractor::workCounts()
    // dual method with ExtractOptions::halfedges / colors, read back with the
    // mesh. Halfedge h leaves corner h % 4 of face h / 4 (so face f's first
    // halfedge is 4f); kNoHalfedge where none.
    std::vector<uint32_t> halfedges;       // 4 per halfedge: origin vertex, face, next, twin
    std::vector<uint32_t> vertexHalfedges; // per vertex: an outgoing halfedge
    std::vector<uint32_t> vertexColors;    // per vertex: its cell's colour, 0 .. 7
    std::vector<uint32_t> faceColors;      // per face: 0 .. 4 (the edge colour, up to 23, where none was free)
};

inline constexpr uint32_t kNoHalfedge = 0xFFFFFFFFu;

std::vector<std::string> extractionMethods();

// Throws Error for an unknown method, with the list of known ones. GPU
// methods run on `context`; the overload without one creates a context.
ExtractionReport extractIsosurface(const Volume& volume, float iso, const ExtractOptions& options = {});
class Context;
ExtractionReport extractIsosurface(Context& context, const Volume& volume, float iso,
                                   const ExtractOptions& options = {});

nlohmann::json toJson(const ExtractionReport& report, const Volume& volume, float iso);

// The median of `values` (which it reorders); 0 for none.
double median(std::vector<double> values);

} // namespace isoscope
