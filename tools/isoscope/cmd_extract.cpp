// isoscope extract: an isosurface as a mesh file and a stats JSON.
#include <cstdio>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "core/error.h"
#include "core/text.h"
#include "extract/extract.h"
#include "io/mesh_io.h"
#include "mesh/world_transform.h"
#include "method_options.h"
#include "output_options.h"
#include "params.h"
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
    command->add_option("--stats", options->stats, "Write statistics as JSON to this file ('-' for stdout)")
        ->check(outputName(Stdout::Allowed));
    addForceFlag(command, options->force);
    return [args, options, method]() {
        std::vector<std::filesystem::path> outputs;
        if (!options->output.empty())
            outputs = meshOutputFiles(options->output); // a .gltf's .bin too
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
        ExtractionReport report = extractIsosurface(volume, iso, extractOptions);
        if (!options->output.empty()) {
            Mesh mesh = report.mesh;
            if (options->indexSpace)
                toIndexSpace(mesh, volume);
            else
                placeInWorld(mesh, volume);
            writeMesh(mesh, options->output, ifExists(options->force));
        }
        nlohmann::json stats = toJson(report, volume, iso);
        if (!options->stats.empty())
            writeJson(stats, options->stats, options->force);
        if (options->stats != "-")
            std::printf("%s: %llu vertices, %llu %s, %.3f ms %s\n", report.method.c_str(),
                        (unsigned long long)report.mesh.positions.size(), (unsigned long long)report.mesh.faceCount(),
                        report.mesh.faceSize == 4 ? "quads" : "triangles",
                        report.totalGpuMs ? *report.totalGpuMs : report.cpuMs, report.totalGpuMs ? "GPU" : "CPU");
        return 0;
    };
}

} // namespace isoscope::cli
