#include "output_options.h"

namespace isoscope::cli {

CLI::Validator outputName(Stdout stdoutUse)
{
    return CLI::Validator(
        [stdoutUse](std::string& name) -> std::string {
            if (name.empty())
                return "'' is not a file name: give one";
            if (name == "-" && stdoutUse == Stdout::Refused)
                return "'-' (standard output) is not supported for this output, whose format comes from the file "
                       "name: give a file name (./- for a file named '-')";
            return "";
        },
        "FILE");
}

void addForceFlag(CLI::App* command, bool& force)
{
    command->add_flag("--force", force, "Replace output files that exist already (without it, they are refused)");
}

void checkOutputs(const std::vector<std::filesystem::path>& paths, bool force)
{
    for (const std::filesystem::path& path : paths)
        if (!path.empty())
            checkOutputPath(path, ifExists(force));
}

} // namespace isoscope::cli
