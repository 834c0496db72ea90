#include "extract/extraction_run.h"

#include <algorithm>
#include <map>

#include "core/context.h"
#include "core/error.h"
#include "core/text.h"
#include "core/warm_up.h"
#include "extract/gpu_methods.h"

namespace isoscope {

GraphExtraction::GraphExtraction(Context& context, GpuExtractor& extractor, float isoGuess)
    : context_(context), extractor_(extractor)
{
    std::array<uint64_t, 2> capacity = extractor.estimateCapacity(isoGuess);
    mesh_ = createGpuMesh(context, capacity[0], capacity[1], extractor.faceSize());
    build();
}

void GraphExtraction::build()
{
    graph_.reset(); // its transients go before the new ones are made
    graph_ = std::make_unique<RenderGraph>(context_);
    MeshBuffers buffers = importMesh(*graph_, mesh_);
    extractor_.addToGraph(*graph_, buffers, iso_);
    graph_->compile();
}

void GraphExtraction::execute(float iso)
{
    iso_ = iso;
    graph_->execute();
}

GpuMeshCounters GraphExtraction::run(float iso)
{
    // On overflow the counters hold the exact sizes, so one redo always fits;
    // the bound only guards against an engine bug.
    for (;;) {
        execute(iso);
        GpuMeshCounters counters = readCounters(context_, mesh_);
        if (!counters.overflow)
            return counters;
        if (overflowRetries_++ > 3)
            fail("the extraction overflowed its buffers again after growing them");
        growAfterOverflow(context_, extractor_, mesh_, counters);
        build();
    }
}

void growAfterOverflow(Context& context, GpuExtractor& extractor, GpuMesh& mesh, const GpuMeshCounters& counters)
{
    bool grew = extractor.growAfterOverflow();
    if (counters.vertexCount > mesh.vertexCapacity || counters.faceCount > mesh.faceCapacity) {
        mesh = GpuMesh{}; // release before allocating the larger one
        mesh = createGpuMesh(context, counters.vertexCount, counters.faceCount, extractor.faceSize());
    } else if (!grew) {
        fail("an extraction reported an overflow that no buffer explains");
    }
}

ExtractionReport runGpuExtraction(Context& context, const Volume& volume, float iso, const ExtractOptions& options)
{
    const GpuMethod* method = findGpuMethod(options.method);
    if (!method)
        fail("unknown GPU extraction method '" + options.method + "': choose one of " +
             join(extractionMethods(), ", "));
    if (options.repeat == 0)
        fail("--repeat must be at least 1");

    PreparedExtraction prepared = prepareGpuExtraction(context, volume, options);
    context.allocator().resetPeak();
    GpuExtractor& extractor = *prepared.extractor;
    GraphExtraction extraction(context, extractor, iso);

    ExtractionReport report;
    report.method = options.method;
    report.methodChoice = options.methodChoice;
    report.device = context.info().name;
    report.subgroupSize = context.info().subgroupSize;
    report.repeat = options.repeat;

    extraction.run(iso);
    report.overflowRetries = extraction.overflowRetries();

    auto timedRun = [&] {
        if (options.volumeChangesEachRun)
            extractor.volumeChanged();
        extraction.execute(iso);
    };
    warmUp(options.warmup, options.warmupMs, timedRun);

    std::vector<std::string> order;
    std::map<std::string, std::vector<double>> times;
    std::vector<double> totals;
    for (uint32_t run = 0; run < options.repeat; ++run) {
        timedRun();
        std::map<std::string, double> sums;
        for (auto& [name, ms] : extraction.graph().passTimings()) {
            if (!sums.count(name) && !times.count(name))
                order.push_back(name);
            sums[name] += ms;
        }
        for (auto& [name, ms] : sums)
            times[name].push_back(ms);
        totals.push_back(extraction.graph().frameMs());
    }
    if (!totals.empty() && context.info().timestampValidBits != 0)
        report.totalGpuMs = median(totals);
    for (const std::string& name : order)
        report.gpuMsPerPass.emplace_back(name, median(times[name]));
    report.transientDeviceBytes = extraction.graph().transientBytes();
    report.auxDeviceBytes = extractor.auxiliaryBytes() + report.transientDeviceBytes;
    report.tableDeviceBytes = extractor.tableBytes();
    report.workCounts = extractor.workCounts();
    report.peakDeviceBytes = context.allocator().peakDeviceBytes();
    GpuMeshCounters counters = readCounters(context, extraction.mesh());
    report.vertexCount = counters.vertexCount;
    report.faceCount = counters.faceCount;
    report.mesh.faceSize = extraction.mesh().faceSize;
    if (options.readBack) {
        report.mesh = downloadMesh(context, extraction.mesh());
        extractor.readBackExtras(report, counters);
    }
    return report;
}

} // namespace isoscope
