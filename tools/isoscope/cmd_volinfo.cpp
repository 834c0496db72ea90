// isoscope volinfo: what a volume holds.
#include <cstdio>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "volume_options.h"

namespace isoscope::cli {

Run addVolinfoCommand(CLI::App& app)
{
    auto* command = app.add_subcommand(
        "volinfo", "Print a volume's dims, type, spacing, origin, index-to-world map, min, max, mean and reader notes");
    auto args = addVolumeArguments(command);
    auto json = std::make_shared<bool>(false);
    command->add_flag("--json", *json, "Print JSON instead of text");
    return [args, json]() {
        Volume volume = args->load();
        const VolumeStats& s = volume.stats;
        if (*json) {
            nlohmann::json report = {{"source", volume.source},
                                     {"dims", volume.dims},
                                     {"type", std::string(scalarName(volume.type))},
                                     {"spacing", volume.spacing},
                                     {"origin", volume.origin},
                                     {"min", s.min},
                                     {"max", s.max},
                                     {"mean", s.mean},
                                     {"non_finite", s.nonFinite},
                                     {"bytes", volume.byteSize()},
                                     {"index_to_world", worldMatrix(volume)},
                                     {"axis_aligned", !volume.indexToWorld.has_value()},
                                     {"notes", volume.notes}};
            writeJson(report, "");
            return 0;
        }
        std::printf("%s\n  dims    %u x %u x %u %s (%llu bytes)\n  spacing %g %g %g\n  origin  %g %g %g\n"
                    "  min %g  max %g  mean %g\n",
                    volume.source.c_str(), volume.dims[0], volume.dims[1], volume.dims[2],
                    std::string(scalarName(volume.type)).c_str(), (unsigned long long)volume.byteSize(),
                    volume.spacing[0], volume.spacing[1], volume.spacing[2], volume.origin[0], volume.origin[1],
                    volume.origin[2], s.min, s.max, s.mean);
        if (volume.indexToWorld) {
            // Printed only where it says more than spacing and origin do.
            std::printf("  index-to-world (rotated or flipped grid; meshes are written through it)\n");
            for (const auto& row : *volume.indexToWorld)
                std::printf("    %12.6g %12.6g %12.6g %12.6g\n", row[0], row[1], row[2], row[3]);
        }
        for (const std::string& note : volume.notes)
            std::printf("  note: %s\n", note.c_str());
        if (s.nonFinite)
            std::printf("  %llu samples are NaN or infinite: extraction treats them as outside the surface\n",
                        (unsigned long long)s.nonFinite);
        return 0;
    };
}

} // namespace isoscope::cli
