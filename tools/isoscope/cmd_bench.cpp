// isoscope bench: GPU timings of one extraction method as JSON, with the
// floor that memory bandwidth sets beside them (docs/BENCHMARKS.md).
#include <cstdio>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "core/context.h"
#include "core/error.h"
#include "core/warm_up.h"
#include "extract/extract.h"
#include "mesh/gpu_mesh.h"
#include "method_options.h"
#include "output_options.h"
#include "params.h"
#include "volume/quantize.h"
#include "volume/resample.h"
#include "volume/synthetic.h"
#include "volume_options.h"

namespace isoscope::cli {

Run addBenchCommand(CLI::App& app)
{
    auto* command = app.add_subcommand("bench", "Time a GPU extraction method (GPU timestamps, medians) as JSON");
    auto args = addVolumeArguments(command);
    struct Options {
        double iso = 0.0;
        bool analytic = false;
        bool uint8 = false;
        bool int16 = false;
        bool staticVolume = false;
        bool pipelineStats = false;
        uint32_t resample = 0;
        double bandwidth = 3.09e12;
        std::string output;
        bool force = false;
    };
    auto options = std::make_shared<Options>();
    command->add_option("--iso", options->iso, "Isovalue, in the data's own units (before --uint8 or --int16)")
        ->check(finiteNumber(-kMaxIsovalue, kMaxIsovalue))
        ->required();
    auto method = addMethodArguments(command, "block", 20, 5, kWarmUpMs);
    command->add_flag("--analytic", options->analytic,
                      "Evaluate the synthetic field in the shader instead of storing it (block method, cayley)");
    command->add_flag("--uint8", options->uint8,
                      "Requantize the volume to uint8 (its value range onto 0..255) and the isovalue with it");
    command->add_flag("--int16", options->int16,
                      "Requantize the volume to int16 (its value range onto -32768..32767) and the isovalue with it");
    command->add_flag("--static-volume", options->staticVolume,
                      "Time isovalue changes on a volume already seen (the block method reuses its value ranges)");
    addPipelineStatsFlag(*command, options->pipelineStats);
    command->add_option("--resample", options->resample,
                        "Resample the volume trilinearly onto N³ samples first (before --uint8 or --int16)")
        ->check(wholeNumber(2, 4096));
    command->add_option("--bandwidth", options->bandwidth,
                        "Bytes/s for the floor estimate (3.09e12: what a compute shader read on the H100)")
        ->check(finiteNumber(kMinBandwidth, kMaxBandwidth))
        ->capture_default_str();
    command->add_option("-o,--output", options->output, "Write the JSON to this file instead of stdout")
        ->check(outputName(Stdout::Allowed));
    addForceFlag(command, options->force);
    return [args, options, method]() {
        // Usage errors (exit 2) before anything is checked on disk or loaded.
        if (method->method == "cpu")
            usageError("--method", "bench times GPU methods; use `isoscope extract --method cpu --stats -` for the CPU "
                                   "reference");
        if (options->uint8 && options->int16)
            usageError("--uint8", "and --int16 both given: pick one");
        if (options->analytic && (!isSyntheticSpec(args->volume) || options->uint8 || options->int16 || options->resample))
            usageError("--analytic", "needs a synthetic volume such as cayley:1024, without --uint8, --int16 or --resample");
        checkOutputs({options->output == "-" ? "" : options->output}, options->force);
        ExtractOptions extractOptions = method->options();
        extractOptions.readBack = false;
        extractOptions.volumeChangesEachRun = !options->staticVolume;
        double iso = options->iso;
        Volume volume;
        if (options->analytic) {
            volume = makeSyntheticGrid(args->volume);
            extractOptions.analyticField = args->volume.substr(0, args->volume.find(':'));
        } else {
            volume = args->load();
            if (options->resample)
                volume = resampleTrilinear(volume, {options->resample, options->resample, options->resample});
            if (options->uint8 || options->int16) {
                ScalarType type = options->uint8 ? ScalarType::UInt8 : ScalarType::Int16;
                iso = quantizedIsovalue(volume, iso, type);
                volume = quantize(volume, type);
            }
        }
        ContextOptions contextOptions;
        contextOptions.capturePipelineStatistics = options->pipelineStats;
        Context context(contextOptions);
        ExtractionReport report = extractIsosurface(context, volume, float(iso), extractOptions);

        nlohmann::json json = toJson(report, volume, float(iso));
        uint64_t volumeBytes = options->analytic ? 0 : volume.byteSize();
        uint64_t meshBytes = report.vertexCount * sizeof(GpuMeshVertex) + report.faceCount * report.mesh.faceSize * sizeof(uint32_t);
        json["iso_given"] = options->iso;
        json["stored"] = !options->analytic;
        json["weld"] = extractOptions.weld;
        json["block"] = extractOptions.blockSize;
        json["warmup"] = extractOptions.warmup;
        json["warmup_ms"] = extractOptions.warmupMs;
        json["static_volume"] = options->staticVolume;
        json["resampled"] = options->resample;
        json["volume_bytes"] = volumeBytes;
        json["mesh_bytes"] = meshBytes;
        // The least traffic any method needs: read the volume once (unless
        // nothing about it may change), write the mesh once.
        uint64_t floorBytes = (options->staticVolume ? 0 : volumeBytes) + meshBytes;
        json["floor_ms"] = double(floorBytes) / options->bandwidth * 1e3;
        json["floor_bandwidth"] = options->bandwidth;
        json.erase("cpu_ms");
        if (options->pipelineStats)
            json["pipelines"] = pipelineStatisticsJson(context);
        writeJson(json, options->output, options->force);
        std::fprintf(stderr, "%s %s: %llu %s, %.3f ms GPU (floor %.3f ms)\n", report.method.c_str(),
                     volume.source.c_str(), (unsigned long long)report.faceCount,
                     report.mesh.faceSize == 4 ? "quads" : "triangles", report.totalGpuMs.value_or(0.0),
                     json["floor_ms"].get<double>());
        return 0;
    };
}

} // namespace isoscope::cli
