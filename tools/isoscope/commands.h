#pragma once
// The `isoscope` command line: one file per subcommand, each registering its
// options on the CLI11 app and returning the function that runs it.
#include <functional>

#include <CLI/CLI.hpp>
#include <nlohmann/json_fwd.hpp>

namespace isoscope {
class Context;
}

namespace isoscope::cli {

using Run = std::function<int()>;

Run addInfoCommand(CLI::App& app);
Run addVolinfoCommand(CLI::App& app);
Run addConvertCommand(CLI::App& app);
Run addExtractCommand(CLI::App& app);
Run addMeshcheckCommand(CLI::App& app);
Run addBenchCommand(CLI::App& app);
Run addBenchScanCommand(CLI::App& app);
Run addRenderCommand(CLI::App& app);
Run addBenchRaycastCommand(CLI::App& app);

// Prints JSON to stdout, or writes it to `path` when not empty or "-" (all
// or nothing, an existing file only with `force`: output_options.h). Text
// that is not UTF-8 (a file name, say) is written with replacement characters.
void writeJson(const nlohmann::json& json, const std::string& path, bool force = false);

// The `--pipeline-stats` flag of the benchmark commands, which sets `enabled`.
void addPipelineStatsFlag(CLI::App& command, bool& enabled);

// The pipeline statistics the context captured (ContextOptions::capturePipelineStatistics),
// one object per pipeline; an empty array where the device cannot report them.
nlohmann::json pipelineStatisticsJson(const Context& context);

} // namespace isoscope::cli
