// isoscope bench-scan: throughput of the device-wide exclusive scan
// (engine/compute/scan.h) as JSON, beside the memory-bandwidth floor and two
// copies of the same bytes timed the same way: a compute shader's
// (copy_vectors.comp) and vkCmdCopyBuffer (docs/BENCHMARKS.md).
#include <algorithm>
#include <cstdio>
#include <functional>
#include <memory>
#include <vector>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "compute/scan.h"
#include "graph/render_graph.h"
#include "core/context.h"
#include "core/error.h"
#include "core/shader.h"
#include "core/transfer.h"
#include "core/warm_up.h"
#include "output_options.h"
#include "params.h"

namespace isoscope::cli {

namespace {

constexpr uint64_t kChunkWords = kStagingBytes / 4; // generated, uploaded and checked chunk by chunk

// Word i of the input: small counts (0..15, about one in sixteen zero), as
// the extractors scan, from a hash of i (splitmix64), so any chunk can be
// made again for the check without keeping the input on the host.
uint32_t inputWord(uint64_t i)
{
    uint64_t z = i + 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return uint32_t((z ^ (z >> 31)) & 15u);
}

void uploadInput(Context& context, const Buffer& input, uint64_t words)
{
    std::vector<uint32_t> chunk;
    for (uint64_t first = 0; first < words; first += kChunkWords) {
        chunk.resize(std::min(kChunkWords, words - first));
        for (size_t k = 0; k < chunk.size(); ++k)
            chunk[k] = inputWord(first + k);
        uploadToBuffer(context, input, chunk.data(), chunk.size() * 4, first * 4);
    }
}

// Compares the GPU's prefixes and 64-bit totals with a CPU scan; throws on
// the first difference.
void verifyScan(Context& context, const Buffer& output, uint64_t outputOffset, const Buffer& totals, uint64_t count,
                uint32_t components)
{
    std::vector<uint64_t> running(components, 0);
    const uint64_t words = count * components;
    for (uint64_t first = 0; first < words; first += kChunkWords) {
        uint64_t n = std::min(kChunkWords, words - first);
        std::vector<uint32_t> got = downloadBufferAs<uint32_t>(context, output, n, outputOffset + first * 4);
        for (uint64_t k = 0; k < n; ++k) {
            uint64_t word = first + k;
            uint64_t& sum = running[word % components];
            if (got[k] != uint32_t(sum))
                fail("bench-scan: wrong scan result at element " + std::to_string(word / components) + " component " +
                     std::to_string(word % components) + ": GPU " + std::to_string(got[k]) + ", CPU " +
                     std::to_string(uint32_t(sum)) + " (engine bug)");
            sum += inputWord(word);
        }
    }
    std::vector<uint64_t> gpuTotals = downloadBufferAs<uint64_t>(context, totals, components);
    for (uint32_t c = 0; c < components; ++c)
        if (gpuTotals[c] != running[c])
            fail("bench-scan: wrong total of component " + std::to_string(c) + ": GPU " + std::to_string(gpuTotals[c]) +
                 ", CPU " + std::to_string(running[c]) + " (engine bug)");
}

// Adds a copy of the first `bytes` (a multiple of 16) of `source` into
// `destination` from `destinationOffset` on by copy_vectors.comp, one
// binding range at a time, as one graph pass.
void addShaderCopy(RenderGraph& graph, const ComputeProgram& copy, ResourceId source, ResourceId destination,
                   uint64_t destinationOffset, uint64_t bytes)
{
    constexpr uint32_t kVectorsPerInvocation = 4;
    graph.addComputePass(
        "copy", copy, {{source, Use::StorageRead, 0}, {destination, Use::StorageWrite, 1}},
        [&copy, source, destination, destinationOffset, bytes](VkCommandBuffer cmd, const RenderGraph& g) {
            const uint32_t workgroupSize = copy.localSize()[0];
            // Segments start at multiples of 4096 bytes, which every device's
            // storage-buffer offset alignment divides.
            const uint64_t segmentBytes = g.context().info().maxStorageBufferRange / 4096 * 4096;
            for (uint64_t first = 0; first < bytes; first += segmentBytes) {
                uint64_t range = std::min(segmentBytes, bytes - first);
                uint32_t vectors = uint32_t(range / 16);
                copy.bind(cmd,
                          {{g.buffer(source), first, range}, {g.buffer(destination), destinationOffset + first, range}},
                          &vectors, sizeof vectors);
                copy.dispatchLine(cmd, groupCount(vectors, workgroupSize * kVectorsPerInvocation));
            }
        });
}

// Throws unless the first `words` of `output` are the input (inputWord).
void verifyCopy(Context& context, const Buffer& output, uint64_t outputOffset, uint64_t words)
{
    for (uint64_t first = 0; first < words; first += kChunkWords) {
        uint64_t n = std::min(kChunkWords, words - first);
        std::vector<uint32_t> got = downloadBufferAs<uint32_t>(context, output, n, outputOffset + first * 4);
        for (uint64_t k = 0; k < n; ++k)
            if (got[k] != inputWord(first + k))
                fail("bench-scan: the shader copy is wrong at word " + std::to_string(first + k) + " (engine bug)");
    }
}

struct Timing {
    double median = 0, min = 0, max = 0;
};

// Median, fastest and slowest of runs' GPU milliseconds.
Timing summarize(std::vector<double> ms)
{
    std::sort(ms.begin(), ms.end());
    size_t middle = ms.size() / 2;
    return {ms.size() % 2 ? ms[middle] : (ms[middle - 1] + ms[middle]) / 2, ms.front(), ms.back()};
}

// GPU milliseconds of one run of `graph`, a submission of its own.
double timeRun(RenderGraph& graph)
{
    graph.execute();
    return graph.frameMs();
}

} // namespace

Run addBenchScanCommand(CLI::App& app)
{
    auto* command = app.add_subcommand("bench-scan", "Time the device-wide exclusive scan and a buffer copy of the "
                                                     "same bytes (GPU timestamps, medians) as JSON");
    struct Options {
        uint64_t count = 0;
        uint32_t components = 1;
        uint32_t repeat = 20;
        uint32_t warmup = 5;
        double bandwidth = 3.09e12;
        std::string algorithm = "auto";
        uint32_t items = 0;
        uint32_t workgroup = 0;
        uint64_t outputOffset = 0;
        double warmupMs = kWarmUpMs;
        bool pipelineStats = false;
        bool wordStates = false;
        std::string output;
        bool force = false;
    };
    auto options = std::make_shared<Options>();
    command->add_option("--count", options->count, "Elements to scan")->required()->check(wholeNumber(1, UINT64_MAX / 8));
    command->add_option("--components", options->components, "uint32 words per element: 1 (uint) or 2 (uvec2)")
        ->check(wholeNumber(1, 2))
        ->capture_default_str();
    command->add_option("--repeat", options->repeat, "Timed runs; timings are medians")
        ->check(wholeNumber(1, kMaxRuns))
        ->capture_default_str();
    command->add_option("--warmup", options->warmup, "Untimed runs before the timed ones")
        ->check(wholeNumber(0, kMaxRuns))
        ->capture_default_str();
    command->add_option("--bandwidth", options->bandwidth,
                        "Bytes/s for the floor estimate (3.09e12: what a compute shader read on the H100)")
        ->check(finiteNumber(kMinBandwidth, kMaxBandwidth))
        ->capture_default_str();
    command->add_option("--algorithm", options->algorithm,
                        "single-pass (decoupled look-back with fallback), reduce-then-scan, or auto (the single pass "
                        "here: the output is a separate buffer)")
        ->check(CLI::IsMember({"auto", "single-pass", "reduce-then-scan"}))
        ->capture_default_str();
    command->add_option("--items", options->items,
                        "Elements per invocation (a multiple of 4 up to 64; default 16 one-word, 8 two-word): "
                        "the tile size")
        ->check(wholeNumber(4, 64))
        ->check(multipleOf(4, "from 4 to 64"));
    command->add_option("--workgroup", options->workgroup,
                        "Invocations per workgroup of the element passes (default 512 for the single pass, 256 "
                        "for its two-word scans with 64-bit tile states and for reduce-then-scan)")
        ->check(wholeNumber(1, 1024));
    command->add_option("--output-offset", options->outputOffset,
                        "Bytes (a multiple of 256) before the output in its buffer: moves where the output lies "
                        "in memory relative to the input")
        ->check(wholeNumber(0, uint64_t(1) << 40))
        ->check(multipleOf(256, "from 0 to 2^40"));
    command->add_option("--warmup-ms", options->warmupMs,
                        "And untimed runs for at least this many milliseconds (GPU clocks rise under load)")
        ->check(finiteNumber(0, kMaxWarmUpMs))
        ->capture_default_str();
    command->add_flag("--word-states", options->wordStates,
                      "Single pass: keep its tile states in 32-bit words even where the device has 64-bit "
                      "buffer atomics (to compare the two)");
    addPipelineStatsFlag(*command, options->pipelineStats);
    command->add_option("-o,--output", options->output, "Write the JSON to this file instead of stdout")
        ->check(outputName(Stdout::Allowed));
    addForceFlag(command, options->force);
    return [options]() {
        checkOutputs({options->output == "-" ? "" : options->output}, options->force);
        const uint64_t count = options->count;
        const uint32_t components = options->components;
        const uint64_t bytes = count * components * 4;
        ContextOptions contextOptions;
        contextOptions.capturePipelineStatistics = options->pipelineStats;
        Context context(contextOptions);
        const DeviceInfo& info = context.info();
        if (bytes > info.maxBufferSize)
            fail("bench-scan of " + std::to_string(count) + " elements needs buffers of " + formatBytes(bytes) + "; " +
                 info.name + " allows at most " + formatBytes(info.maxBufferSize) + " per buffer: lower --count");
        uint64_t needed = 2 * bytes + ExclusiveScan::scratchBytesFor(context, components, count);
        if (needed > context.allocator().availableDeviceBytes())
            fail("bench-scan of " + std::to_string(count) + " elements needs " + formatBytes(needed) +
                 " of device memory (input, output, scratch); " + formatBytes(context.allocator().availableDeviceBytes()) +
                 " is available on " + info.name + ": lower --count");

        ScanOptions scanOptions;
        scanOptions.algorithm = options->algorithm == "single-pass"        ? ScanAlgorithm::SinglePass
                                : options->algorithm == "reduce-then-scan" ? ScanAlgorithm::ReduceThenScan
                                                                           : ScanAlgorithm::Auto;
        scanOptions.items = options->items;
        scanOptions.workgroupSize = options->workgroup;
        scanOptions.packedTileStates = !options->wordStates;
        ExclusiveScan scan(context, components, count, scanOptions);
        const bool singlePass = scan.singlePass() != nullptr; // output and input are separate buffers
        constexpr VkBufferUsageFlags usage =
            VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
        Allocator& allocator = context.allocator();
        Buffer input = allocator.createBuffer(bytes, usage, MemoryUsage::DeviceLocal, "bench-scan input");
        Buffer output = allocator.createBuffer(bytes + options->outputOffset, usage, MemoryUsage::DeviceLocal, "bench-scan output");
        Buffer totals = allocator.createBuffer(16, usage, MemoryUsage::DeviceLocal, "bench-scan totals");
        uploadInput(context, input, count * components);

        // The shader copy moves whole 16-byte vectors: the bytes rounded down to 16.
        const uint64_t shaderCopyBytes = bytes / 16 * 16;
        // 256 invocations where the device allows (lavapipe at subgroup size 4 allows 128).
        uint32_t copyWorkgroup = std::min(256u, info.maxWorkgroupInvocations());
        ComputeProgram copy(context, loadShader("compute/copy_vectors"), {{"WORKGROUP_SIZE", copyWorkgroup}, {"VECTORS", 4}});
        // One graph each: the scan, the shader copy, the buffer copy (and,
        // for the check, the scan with its fallback count copied out).
        Buffer fallbackWord = allocator.createBuffer(4, usage, MemoryUsage::DeviceLocal, "bench-scan fallbacks");
        auto scanGraph = [&](bool readFallbacks) {
            auto graph = std::make_unique<RenderGraph>(context);
            ResourceId in = graph->importBuffer("input", input.buffer);
            ResourceId out = graph->importBuffer("output", output.buffer);
            ResourceId sums = graph->importBuffer("totals", totals.buffer);
            scan.addPasses(*graph, {in}, {out, options->outputOffset}, count, {sums});
            if (readFallbacks && singlePass) {
                ResourceId scratch = scan.lastScratch(), word = graph->importBuffer("fallbacks", fallbackWord.buffer);
                graph->addPass("read fallbacks", PassKind::Transfer, {{scratch, Use::TransferSrc}, {word, Use::TransferDst}},
                               [scratch, word](VkCommandBuffer cmd, const RenderGraph& g) {
                                   VkBufferCopy region{SinglePassScan::kFallbackCountOffset, 0, 4};
                                   vkCmdCopyBuffer(cmd, g.buffer(scratch), g.buffer(word), 1, &region);
                               });
            }
            graph->compile();
            return graph;
        };
        std::unique_ptr<RenderGraph> scanRun = scanGraph(false), scanCheck = scanGraph(true);
        RenderGraph copyRun(context), bufferCopyRun(context);
        addShaderCopy(copyRun, copy, copyRun.importBuffer("input", input.buffer),
                      copyRun.importBuffer("output", output.buffer), options->outputOffset, shaderCopyBytes);
        copyRun.compile();
        {
            ResourceId in = bufferCopyRun.importBuffer("input", input.buffer);
            ResourceId out = bufferCopyRun.importBuffer("output", output.buffer);
            uint64_t offset = options->outputOffset;
            bufferCopyRun.addPass("buffer copy", PassKind::Transfer, {{in, Use::TransferSrc}, {out, Use::TransferDst}},
                                  [in, out, offset, bytes](VkCommandBuffer cmd, const RenderGraph& g) {
                                      VkBufferCopy region{0, offset, bytes};
                                      vkCmdCopyBuffer(cmd, g.buffer(in), g.buffer(out), 1, &region);
                                  });
            bufferCopyRun.compile();
        }

        // Warmed up together, then timed in turn (scan, shader copy, buffer
        // copy, scan, ...), so that each is measured at the clocks the others
        // are: timed one after the other, the first ran at the clocks the GPU
        // had after idling through the upload (core/warm_up.h).
        warmUp(options->warmup, options->warmupMs, [&] {
            timeRun(*scanRun);
            timeRun(copyRun);
            timeRun(bufferCopyRun);
        });
        std::vector<double> scanRuns, copyRuns, bufferCopyRuns;
        for (uint32_t run = 0; run < options->repeat; ++run) {
            scanRuns.push_back(timeRun(*scanRun));
            copyRuns.push_back(timeRun(copyRun));
            bufferCopyRuns.push_back(timeRun(bufferCopyRun));
        }
        const Timing scanTiming = summarize(scanRuns), shaderCopy = summarize(copyRuns);
        const double scanMs = scanTiming.median, shaderCopyMs = shaderCopy.median;
        const double copyMs = summarize(bufferCopyRuns).median;

        // Before the check, so that a run that fails it still tells how long it took.
        std::fprintf(stderr, "bench-scan: timed the scan at %.3f ms and the shader copy at %.3f ms; checking both\n",
                     scanMs, shaderCopyMs);
        // Each checked after one more run of its own.
        scanCheck->execute();
        verifyScan(context, output, options->outputOffset, totals, count, components);
        // Tiles the last run's look-backs reduced themselves instead of waiting.
        uint32_t fallbacks = singlePass ? downloadBufferAs<uint32_t>(context, fallbackWord, 1)[0] : 0;
        copyRun.execute();
        verifyCopy(context, output, options->outputOffset, shaderCopyBytes / 4);

        // The floor: any scan reads its input once and writes its output once,
        // as the copy does, and so does the single pass (plus its fallbacks'
        // re-reads). Reduce-then-scan reads the input twice, so it moves 1.5x
        // that (scan_passes.h).
        uint64_t bytesMoved = 2 * bytes;
        double floorMs = double(bytesMoved) / options->bandwidth * 1e3;
        nlohmann::json json = {{"device", info.name},
                               {"count", count},
                               {"components", components},
                               {"repeat", options->repeat},
                               {"warmup", options->warmup},
                               {"warmup_ms", options->warmupMs},
                               {"interleaved", true},
                               {"verified", true},
                               {"output_offset", options->outputOffset},
                               {"algorithm", singlePass ? "single-pass" : "reduce-then-scan"},
                               {"tile_elements", singlePass ? scan.singlePass()->layout().tileElements
                                                            : scanLayout(context, components, scanOptions).tileElements},
                               {"workgroup_size", singlePass ? scan.singlePass()->layout().workgroupSize
                                                             : scanLayout(context, components, scanOptions).workgroupSize},
                               {"tile_states", !singlePass                             ? "none"
                                               : scan.singlePass()->packedStates() ? "64-bit"
                                                                                   : "32-bit words"},
                               {"fallbacks", fallbacks},
                               {"block_levels", scanLevelBlocks(scanLayout(context, components, {}), count).size()},
                               {"ms", scanMs},
                               {"ms_min", scanTiming.min},
                               {"ms_max", scanTiming.max},
                               {"elements_per_second", double(count) / (scanMs * 1e-3)},
                               {"bytes_moved", bytesMoved},
                               {"scan_traffic_bytes", singlePass ? 2 * bytes : 3 * bytes},
                               {"bandwidth", options->bandwidth},
                               {"floor_ms", floorMs},
                               {"fraction_of_bandwidth", floorMs / scanMs},
                               {"shader_copy_ms", shaderCopyMs},
                               {"shader_copy_ms_min", shaderCopy.min},
                               {"shader_copy_ms_max", shaderCopy.max},
                               {"shader_copy_bytes", shaderCopyBytes},
                               {"shader_copy_fraction_of_bandwidth", double(2 * shaderCopyBytes) / options->bandwidth * 1e3 / shaderCopyMs},
                               {"ratio_to_shader_copy", scanMs / shaderCopyMs},
                               {"copy_ms", copyMs},
                               {"copy_fraction_of_bandwidth", floorMs / copyMs},
                               {"ratio_to_copy", scanMs / copyMs}};
        if (options->pipelineStats)
            json["pipelines"] = pipelineStatisticsJson(context);
        writeJson(json, options->output, options->force);
        std::fprintf(stderr,
                     "%s scan of %llu x %u words: %.3f ms GPU, %.3g elements/s, %.2f of bandwidth, %.2fx a shader copy, "
                     "%.2fx vkCmdCopyBuffer\n",
                     singlePass ? "single-pass" : "reduce-then-scan", (unsigned long long)count, components, scanMs, double(count) / (scanMs * 1e-3), floorMs / scanMs,
                     scanMs / shaderCopyMs, scanMs / copyMs);
        return 0;
    };
}

} // namespace isoscope::cli
