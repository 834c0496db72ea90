// isoscope convert: write any readable volume (synthetic fields included) as
// NRRD, optionally requantized to an integer type.
#include <cstdio>
#include <filesystem>

#include "commands.h"
#include "core/error.h"
#include "volume/quantize.h"
#include "volume/synthetic.h"
#include "volume/volume_source.h"
#include "volume/write_nrrd.h"
#include "output_options.h"
#include "progress.h"
#include "volume_options.h"

namespace isoscope::cli {

Run addConvertCommand(CLI::App& app)
{
    auto* command = app.add_subcommand("convert", "Write a volume as NRRD: .nrrd (attached) or .nhdr (+ .raw beside it)");
    auto args = addVolumeArguments(command);
    struct Options {
        std::string output;
        std::string to;
        bool force = false;
    };
    auto options = std::make_shared<Options>();
    command->add_option("-o,--output", options->output, "Output file, .nrrd or .nhdr")
        ->check(outputName(Stdout::Refused))
        ->required();
    addForceFlag(command, options->force);
    command->add_option("--to", options->to,
                        "Requantize to uint8, uint16 or int16: the value range maps onto the type's whole range")
        ->check(CLI::IsMember({"uint8", "uint16", "int16"}));
    return [args, options]() {
        checkOutputs(nrrdOutputFiles(options->output), options->force);
        if (options->to.empty() && isSyntheticSpec(args->volume) && !std::filesystem::exists(args->volume)) {
            // A synthetic field generated plane range by plane range: never whole in memory (a volume larger
            // than the host's memory converts, as far as the disk holds it).
            std::unique_ptr<VolumeSource> source;
            try {
                source = openSyntheticSource(args->volume, args->type.empty() ? ScalarType::Float32
                                                                               : *parseScalarName(args->type));
            } catch (const Error&) {
                // Read whole below, with its own errors.
            }
            if (source) {
                writeNrrd(*source, options->output, {ifExists(options->force), terminalProgress(args->quiet)});
                std::printf("wrote %s\n", options->output.c_str());
                return 0;
            }
        }
        Volume volume = args->load();
        for (const std::string& note : volume.notes)
            std::fprintf(stderr, "isoscope: %s: %s\n", volume.source.c_str(), note.c_str());
        if (!options->to.empty()) {
            ScalarType type = *parseScalarName(options->to);
            std::printf("value range [%g, %g] onto %s: an isovalue v becomes %s + (v - %g) * %.17g\n",
                        volume.stats.min, volume.stats.max, options->to.c_str(),
                        type == ScalarType::Int16 ? "-32768" : "0", volume.stats.min,
                        quantizedIsovalue(volume, 1.0, type) - quantizedIsovalue(volume, 0.0, type));
            volume = quantize(volume, type);
        }
        writeNrrd(volume, options->output, {ifExists(options->force), terminalProgress(args->quiet)});
        std::printf("wrote %s\n", options->output.c_str());
        return 0;
    };
}

} // namespace isoscope::cli
