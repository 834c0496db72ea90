// isoscope: GPU isosurface extraction and volume rendering from the command line.
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <map>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "core/context.h"
#include "core/error.h"
#include "io/output_file.h"
#include "output_options.h"
#include "progress.h"

namespace isoscope::cli {

void writeJson(const nlohmann::json& json, const std::string& path, bool force)
{
    std::string text = json.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
    OutputFile file(path.empty() ? "-" : path, ifExists(force));
    file.write(text + "\n");
    file.commit();
}

void addPipelineStatsFlag(CLI::App& command, bool& enabled)
{
    command.add_flag("--pipeline-stats", enabled,
                     "Add each compute pipeline's driver statistics (registers, shared memory) to the JSON, "
                     "where the device has VK_KHR_pipeline_executable_properties");
}

nlohmann::json pipelineStatisticsJson(const Context& context)
{
    nlohmann::json list = nlohmann::json::array();
    for (const PipelineStatistics& pipeline : context.pipelineStatistics()) {
        nlohmann::json values = nlohmann::json::object();
        for (const auto& [name, value] : pipeline.values)
            values[name] = value;
        list.push_back({{"program", pipeline.program}, {"executable", pipeline.executable}, {"statistics", values}});
    }
    return list;
}

} // namespace isoscope::cli

int main(int argc, char** argv)
{
    using namespace isoscope;
    // Past a file size limit (ulimit -f) a write then fails with EFBIG, which
    // the writers report and clean up after, instead of the signal killing
    // the process with a partial file left behind.
    std::signal(SIGXFSZ, SIG_IGN);
    CLI::App app{"isoscope: isosurfaces and volume rendering on the GPU with Vulkan compute.\n"
                 "VOLUME is a file (.raw, .nrrd, .nhdr, .mhd, .mha, .vtk) or a synthetic field such as\n"
                 "cayley:128, sphere:64, torus:96x96x48, gyroid:100, marschner-lobb:41."};
    app.require_subcommand(1);
    std::map<CLI::App*, cli::Run> commands;
    auto add = [&](const char* name, cli::Run (*addCommand)(CLI::App&)) {
        cli::Run run = addCommand(app);
        commands[app.get_subcommand(name)] = run;
    };
    add("info", cli::addInfoCommand);
    add("volinfo", cli::addVolinfoCommand);
    add("convert", cli::addConvertCommand);
    add("extract", cli::addExtractCommand);
    add("meshcheck", cli::addMeshcheckCommand);
    add("render", cli::addRenderCommand);
    add("bench", cli::addBenchCommand);
    add("bench-scan", cli::addBenchScanCommand);
    add("bench-raycast", cli::addBenchRaycastCommand);

    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        // One line: what was wrong. Exit code 2, as for any usage error.
        std::fprintf(stderr, "isoscope: %s (see isoscope --help)\n", e.what());
        return 2;
    }

    try {
        // Unwound before any message below: an error ends a progress line first.
        struct ProgressLineEnd {
            ~ProgressLineEnd() { cli::endProgressLine(); }
        } progressLineEnd;
        for (auto& [command, run] : commands)
            if (command->parsed()) {
                int status = run();
                // What went to standard output is checked like any file (`> /dev/full`).
                if (std::fflush(stdout) != 0 || std::ferror(stdout))
                    fail(std::string("cannot write standard output: ") + std::strerror(errno ? errno : EIO));
                return status;
            }
    } catch (const CLI::ParseError& e) {
        // A usage error found once the options are read together (params.h usageError).
        std::fprintf(stderr, "isoscope: %s (see isoscope --help)\n", e.what());
        return 2;
    } catch (const Error& e) {
        std::fprintf(stderr, "isoscope: %s\n", e.what());
        return 1;
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "isoscope: out of host memory: use a smaller volume\n");
        return 1;
    } catch (const std::exception& e) {
        // Not an isoscope::Error: an engine bug, but still one line and exit 1, never an abort.
        std::fprintf(stderr, "isoscope: internal error: %s (please report it)\n", e.what());
        return 1;
    }
    return 2;
}
