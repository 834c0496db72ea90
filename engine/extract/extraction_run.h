#pragma once
// An extraction on a render graph of its own, as the CLI's `extract` and
// `bench`, `render` and the tests run it: compiled once, executed for any
// isovalue; on overflow the buffers grow to the counted sizes and the
// extraction runs again, so a result is never silently truncated.
//
//   GraphExtraction extraction(context, *prepared.extractor);
//   GpuMeshCounters counts = extraction.run(iso);       // submits and waits
//   Mesh mesh = downloadMesh(context, extraction.mesh());
#include <memory>

#include "extract/gpu_extractor.h"
#include "graph/render_graph.h"

namespace isoscope {

class GraphExtraction {
public:
    // The first mesh is sized by the extractor's estimate for `isoGuess`.
    GraphExtraction(Context& context, GpuExtractor& extractor, float isoGuess);

    // Runs the graph for `iso` until nothing overflows; returns the counters.
    GpuMeshCounters run(float iso);
    // Runs the compiled graph once as it stands (benchmarks' timed runs).
    void execute(float iso);

    GpuMesh& mesh() { return mesh_; }
    RenderGraph& graph() { return *graph_; }
    uint32_t overflowRetries() const { return overflowRetries_; }

private:
    void build();

    Context& context_;
    GpuExtractor& extractor_;
    GpuMesh mesh_;
    float iso_ = 0.0f;
    std::unique_ptr<RenderGraph> graph_;
    uint32_t overflowRetries_ = 0;
};

// After a run whose counters report an overflow: grows the extractor's work
// buffers and, where its counts do not fit, replaces `mesh` with one of
// exactly the counted size. A host then builds its graph again (or, when only
// the mesh grew, points the imports at it: setImportedMesh). Throws Error
// when nothing explains the overflow.
void growAfterOverflow(Context& context, GpuExtractor& extractor, GpuMesh& mesh, const GpuMeshCounters& counters);

// Runs `options.warmup` untimed and `options.repeat` timed extractions of a
// GPU method through GraphExtraction and reads the mesh back once: timings
// are the graph's GPU timestamps, medians over the timed runs, per pass name
// (passes of one name, e.g. one per slab, add up within a run).
ExtractionReport runGpuExtraction(Context& context, const Volume& volume, float iso, const ExtractOptions& options);

} // namespace isoscope
