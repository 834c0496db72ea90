// isoscope extract: an isosurface as a mesh file and a stats JSON.
#include <cstdio>

#include <nlohmann/json.hpp>

#include "byte_size_option.h"
#include "commands.h"
#include "core/error.h"
#include "core/text.h"
#include "extract/extract.h"
#include "io/halfedge_io.h"
#include "io/mesh_io.h"
#include "mesh/simplify.h"
#include "mesh/world_transform.h"
#include "method_options.h"
#include "output_options.h"
#include "params.h"
#include "progress.h"
#include "stream_extract.h"
#include "volume_options.h"

namespace isoscope::cli {

Run addExtractCommand(CLI::App& app)
{
    auto* command = app.add_subcommand("extract", "Extract an isosurface");
    auto args = addVolumeArguments(command);
    struct Options {
        double iso = 0.0;
        std::string output;
        std::string stats;
        bool force = false;
        bool indexSpace = false;
        double simplify = 1.0;
        uint32_t smooth = 0;
        bool stream = false;
        std::string deviceBudget;
        uint32_t slabLayers = 0;
        bool measureCopy = false;
        bool measureSource = false;
    };
    auto options = std::make_shared<Options>();
    command->add_option("--iso", options->iso, "Isovalue, in the data's own units")
        ->check(finiteNumber(-kMaxIsovalue, kMaxIsovalue))
        ->required();
    auto method = addMethodArguments(command, "cpu", 1, 0);
    command->add_option("-o,--output", options->output,
                        "Mesh file to write: .ply (binary), .obj, .stl (binary), .vtp (VTK XML), .gltf (+ .bin) or .glb")
        ->check(outputName(Stdout::Refused));
    command->add_flag("--index-space", options->indexSpace,
                      "Write vertex positions as grid indices (i, j, k) instead of world coordinates (spacing, "
                      "origin and the file's orientation applied)");
    command->add_option("--simplify", options->simplify,
                        "Before writing: keep about this fraction of the triangles (0 < RATIO <= 1; meshoptimizer, "
                        "borders kept)")
        ->check(positiveFraction());
    command->add_option("--smooth", options->smooth, "Before writing: N iterations of Taubin smoothing (no shrinking)")
        ->check(wholeNumber(0, kMaxSmoothIterations));
    command->add_option("--stats", options->stats, "Write statistics as JSON to this file ('-' for stdout)")
        ->check(outputName(Stdout::Allowed));
    command->add_flag("--stream", options->stream,
                      "Extract slab of z-planes by slab (the block method unless --method scan): the volume (a .raw "
                      "or raw-encoded NRRD file, read in place, or a synthetic spec, generated slab by slab) is never "
                      "whole in host or device memory; the mesh is the same welded mesh. Automatic with "
                      "--device-budget when the volume does not fit it");
    command->add_option("--device-budget", options->deviceBudget,
                        "Device memory isoscope may use, e.g. 2GiB, 512MiB, 3GB (default: the device's budget)")
        ->check(byteSizeValidator());
    command->add_option("--slab-layers", options->slabLayers,
                        "With --stream: at most N cell layers per slab, as the budget allows (default: as many as the "
                        "budget allows in slab images of at most 512 MiB)")
        ->check(wholeNumber(1, UINT32_MAX));
    command->add_flag("--measure-copy", options->measureCopy,
                      "With --stream: first measure the pinned host-to-device copy rate (the stats' copy_ceiling)");
    command->add_flag("--measure-source", options->measureSource,
                      "With --stream: first read the whole volume into pinned memory and upload it, nothing extracted "
                      "(the stats' source_ceiling: how fast this source reaches the device on this host)");
    addForceFlag(command, options->force);
    CLI::Option* methodOption = command->get_option("--method");
    return [args, options, method, methodOption]() {
        if (!options->stream && (options->slabLayers || options->measureCopy || options->measureSource))
            usageError("--stream", options->slabLayers  ? "--slab-layers needs --stream"
                                   : options->measureCopy ? "--measure-copy needs --stream"
                                                          : "--measure-source needs --stream");
        if (options->stream || !options->deviceBudget.empty()) {
            StreamRequest request;
            request.volume = args->volume;
            request.raw = args->rawOptions();
            if (!args->type.empty())
                request.syntheticType = parseScalarName(args->type);
            request.iso = float(options->iso);
            request.method = method->options();
            if (options->stream && methodOption->count() == 0)
                request.method.method = "block"; // streaming's default, not the in-core CPU reference
            request.deviceBudget = options->deviceBudget.empty() ? 0 : *parseByteSize(options->deviceBudget);
            request.slabLayers = options->slabLayers;
            request.forced = options->stream;
            request.measureCopy = options->measureCopy;
            request.measureSource = options->measureSource;
            request.output = options->output;
            request.stats = options->stats;
            request.force = options->force;
            request.indexSpace = options->indexSpace;
            request.quiet = args->quiet;
            bool gpu = request.method.method != "cpu";
            if (options->stream && !gpu)
                usageError("--stream", "streamed extraction runs on the GPU: give --method block or --method scan "
                                       "(or auto)");
            if (options->stream && (options->simplify < 1.0 || options->smooth > 0))
                usageError("--stream", "--simplify and --smooth need the whole mesh; leave them out with --stream");
            if (gpu && options->simplify >= 1.0 && options->smooth == 0) {
                std::vector<std::filesystem::path> outputs;
                if (!options->output.empty())
                    outputs = meshOutputFiles(options->output);
                outputs.push_back(options->stats == "-" ? "" : options->stats);
                checkOutputs(outputs, options->force);
                if (std::optional<int> code = runStreamedExtract(request))
                    return *code;
            }
        }
        std::vector<std::filesystem::path> outputs;
        if (!options->output.empty())
            outputs = meshOutputFiles(options->output); // a .gltf's .bin too
        bool halfedges = method->halfedges || method->colors;
        if (halfedges && !options->output.empty())
            outputs.push_back(halfedgesPathFor(options->output));
        if (halfedges && options->simplify < 1.0)
            usageError("--simplify", "changes the faces the halfedges describe: not with --halfedges or --colors");
        outputs.push_back(options->stats == "-" ? "" : options->stats);
        checkOutputs(outputs, options->force);
        Volume volume = args->load();
        for (const std::string& note : volume.notes)
            std::fprintf(stderr, "isoscope: %s: %s\n", volume.source.c_str(), note.c_str());
        if (volume.stats.nonFinite)
            std::fprintf(stderr, "isoscope: %s has %llu NaN or infinite samples: they count as outside the surface\n",
                         volume.source.c_str(), (unsigned long long)volume.stats.nonFinite);
        float iso = float(options->iso);
        ExtractOptions extractOptions = method->options();
        if (!options->deviceBudget.empty())
            extractOptions.budgetBytes = *parseByteSize(options->deviceBudget);
        ExtractionReport report = extractIsosurface(volume, iso, extractOptions);
        // Export steps on the read-back mesh, in the extraction frame; their counts go in the stats.
        Mesh mesh = report.mesh;
        nlohmann::json exported;
        if (options->simplify < 1.0) {
            MeshReduction reduction = simplifyMesh(mesh, options->simplify);
            exported["simplify"] = {{"ratio", options->simplify},
                                    {"triangles_before", reduction.trianglesBefore},
                                    {"triangles_after", reduction.trianglesAfter},
                                    {"vertices_before", reduction.verticesBefore},
                                    {"vertices_after", reduction.verticesAfter},
                                    {"relative_error", reduction.relativeError}};
        }
        if (options->smooth > 0) {
            smoothMesh(mesh, options->smooth);
            exported["smooth"] = {{"iterations", options->smooth}, {"method", "taubin"}};
        }
        if (!exported.empty())
            exported["written"] = {{"vertices", mesh.positions.size()}, {"triangles", mesh.faceCount()}};
        if (!options->output.empty()) {
            if (options->indexSpace)
                toIndexSpace(mesh, volume);
            else
                placeInWorld(mesh, volume);
            writeMesh(mesh, options->output, {ifExists(options->force), terminalProgress(args->quiet)});
            if (halfedges) {
                writeHalfedges(report, halfedgesPathFor(options->output),
                               {ifExists(options->force), terminalProgress(args->quiet)});
            }
        }
        nlohmann::json stats = toJson(report, volume, iso);
        if (!exported.empty())
            stats["export"] = exported;
        if (!options->stats.empty())
            writeJson(stats, options->stats, options->force);
        if (options->stats != "-")
            std::printf("%s: %llu vertices, %llu %s, %.3f ms %s\n", report.method.c_str(),
                        (unsigned long long)report.mesh.positions.size(), (unsigned long long)report.mesh.faceCount(),
                        report.mesh.faceSize == 4 ? "quads" : "triangles",
                        report.totalGpuMs ? *report.totalGpuMs : report.cpuMs, report.totalGpuMs ? "GPU" : "CPU");
        if (options->stats != "-" && !exported.empty())
            std::printf("written: %llu vertices, %llu triangles after%s%s\n", (unsigned long long)mesh.positions.size(),
                        (unsigned long long)mesh.faceCount(), options->simplify < 1.0 ? " --simplify" : "",
                        options->smooth > 0 ? " --smooth" : "");
        return 0;
    };
}

} // namespace isoscope::cli
