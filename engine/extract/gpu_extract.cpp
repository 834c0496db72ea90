#include <algorithm>
#include <map>
#include <optional>

#include "core/warm_up.h"
#include "core/barrier.h"
#include "core/context.h"
#include "core/error.h"
#include "core/gpu_timer.h"
#include "core/shader.h"
#include "core/text.h"
#include "extract/gpu_extractor.h"
#include "extract/gpu_methods.h"

namespace isoscope {

std::array<uint64_t, 2> GpuExtractor::estimateCapacity(float) const
{
    // A closed surface through an n³ grid crosses about as many cells as a few
    // of its faces hold; 4 triangles per cell of one face layer in each
    // direction covers smooth data, and overflow handling covers the rest.
    uint64_t x = dims_[0], y = dims_[1], z = dims_[2];
    uint64_t faces = 4 * (x * y + y * z + x * z) + 4096;
    return {faces / 2 + 4096, faces};
}

std::unique_ptr<GpuExtractor> createGpuExtractor(Context& context, const std::string& method, const FieldSource& field,
                                                 const ExtractOptions& options)
{
    const GpuMethod* entry = findGpuMethod(method);
    if (!entry)
        fail("unknown GPU extraction method '" + method + "': choose one of " + join(extractionMethods(), ", "));
    return entry->create(context, field, options);
}

namespace {

// One extraction: reset, the method's passes, finalize; timed as "total".
void recordExtraction(VkCommandBuffer cmd, GpuExtractor& extractor, const ComputeProgram& finalize, float iso,
                      const GpuMesh& mesh, GpuTimer& timer)
{
    timer.reset(cmd);
    uint32_t total = timer.begin(cmd, "total");
    recordResetCounters(cmd, mesh);
    // ALL_TRANSFER: validation counts vkCmdFillBuffer as a copy, the spec as a clear.
    memoryBarrier(cmd, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT | VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT,
                  VK_ACCESS_2_TRANSFER_WRITE_BIT | VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT,
                  VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
    extractor.record(cmd, iso, mesh, &timer);
    memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                  VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
    uint32_t faceSize = mesh.faceSize;
    finalize.bind(cmd, {{mesh.vertices.buffer}, {mesh.indices.buffer}, {mesh.counters.buffer}}, &faceSize, sizeof(faceSize));
    finalize.dispatch(cmd, 1);
    // Everything after reads the mesh as draw input or copies it back.
    memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                  VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT | VK_PIPELINE_STAGE_2_VERTEX_INPUT_BIT | VK_PIPELINE_STAGE_2_COPY_BIT,
                  VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT | VK_ACCESS_2_VERTEX_ATTRIBUTE_READ_BIT |
                      VK_ACCESS_2_INDEX_READ_BIT | VK_ACCESS_2_TRANSFER_READ_BIT);
    timer.end(cmd, total);
}

} // namespace

PreparedExtraction prepareGpuExtraction(Context& context, const Volume& volume, const ExtractOptions& options)
{
    const GpuMethod* method = findGpuMethod(options.method);
    if (!method)
        fail("unknown GPU extraction method '" + options.method + "': choose one of " +
             join(extractionMethods(), ", "));
    PreparedExtraction prepared;
    if (options.analyticField.empty()) {
        GpuVolumeUsage usage = method->volumeUsage(volume);
        if (usage.buffer && usage.bufferOptional) {
            // The raw copy only speeds a method up: leave it out where the
            // device has no room for both forms.
            try {
                checkVolumeFitsDevice(context, volume, usage);
            } catch (const Error&) {
                usage.buffer = false;
            }
        }
        prepared.volume = std::make_unique<GpuVolume>(context, volume, usage);
    }
    prepared.extractor = method->create(context, FieldSource{&volume, prepared.volume.get()}, options);
    return prepared;
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
    std::unique_ptr<GpuExtractor>& extractor = prepared.extractor;
    ComputeProgram finalize(context, loadShader("extract/finalize_mesh"));
    GpuTimer timer(context, 64);

    std::array<uint64_t, 2> capacity = extractor->estimateCapacity(iso);
    GpuMesh mesh = createGpuMesh(context, capacity[0], capacity[1], extractor->faceSize());

    ExtractionReport report;
    report.method = options.method;
    report.device = context.info().name;
    report.subgroupSize = context.info().subgroupSize;
    report.repeat = options.repeat;

    // The first run sizes the buffers: on overflow, the counters hold the
    // exact sizes, so one redo always fits.
    for (;;) {
        context.submitAndWait([&](VkCommandBuffer cmd) { recordExtraction(cmd, *extractor, finalize, iso, mesh, timer); });
        timer.read();
        GpuMeshCounters counters = readCounters(context, mesh);
        if (!counters.overflow)
            break;
        if (report.overflowRetries++ > 3)
            fail("the " + options.method + " extraction overflowed its buffers again after growing them");
        growAfterOverflow(context, *extractor, mesh, counters);
    }

    warmUp(options.warmup, options.warmupMs, [&] {
        if (options.volumeChangesEachRun)
            extractor->volumeChanged();
        context.submitAndWait([&](VkCommandBuffer cmd) { recordExtraction(cmd, *extractor, finalize, iso, mesh, timer); });
    });

    std::vector<std::string> order;
    std::map<std::string, std::vector<double>> times;
    for (uint32_t run = 0; run < options.repeat; ++run) {
        if (options.volumeChangesEachRun)
            extractor->volumeChanged();
        context.submitAndWait([&](VkCommandBuffer cmd) { recordExtraction(cmd, *extractor, finalize, iso, mesh, timer); });
        for (auto& [name, ms] : timer.read()) {
            if (!times.count(name))
                order.push_back(name);
            times[name].push_back(ms);
        }
    }
    for (const std::string& name : order) {
        if (name == "total")
            report.totalGpuMs = median(times[name]);
        else
            report.gpuMsPerPass.emplace_back(name, median(times[name]));
    }
    report.auxDeviceBytes = extractor->auxiliaryBytes();
    report.tableDeviceBytes = extractor->tableBytes();
    report.workCounts = extractor->workCounts();
    report.peakDeviceBytes = context.allocator().peakDeviceBytes();
    GpuMeshCounters counters = readCounters(context, mesh);
    report.vertexCount = counters.vertexCount;
    report.faceCount = counters.faceCount;
    report.mesh.faceSize = mesh.faceSize;
    if (options.readBack)
        report.mesh = downloadMesh(context, mesh);
    return report;
}

} // namespace isoscope
