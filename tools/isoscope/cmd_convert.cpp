// isoscope convert: write any readable volume (synthetic fields included) as NRRD.
#include <cstdio>

#include "commands.h"
#include "core/error.h"
#include "volume/write_nrrd.h"
#include "volume_options.h"

namespace isoscope::cli {

Run addConvertCommand(CLI::App& app)
{
    auto* command = app.add_subcommand("convert", "Write a volume as NRRD: .nrrd (attached) or .nhdr (+ .raw beside it)");
    auto args = addVolumeArguments(command);
    auto output = std::make_shared<std::string>();
    command->add_option("-o,--output", *output, "Output file, .nrrd or .nhdr")->required();
    return [args, output]() {
        Volume volume = args->load();
        writeNrrd(volume, *output);
        std::printf("wrote %s\n", output->c_str());
        return 0;
    };
}

} // namespace isoscope::cli
