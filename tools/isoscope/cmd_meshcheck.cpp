// isoscope meshcheck: topology and geometry of a mesh file.
#include <cstdio>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "io/mesh_io.h"
#include "mesh/mesh_check.h"
#include "progress.h"

namespace isoscope::cli {

Run addMeshcheckCommand(CLI::App& app)
{
    auto* command = app.add_subcommand(
        "meshcheck", "Check a mesh (.ply or .obj): vertices, faces, boundary and non-manifold edges, Euler "
                     "characteristic, surface area, vertices sharing a position");
    auto path = std::make_shared<std::string>();
    auto json = std::make_shared<bool>(false);
    auto quiet = std::make_shared<bool>(false);
    command->add_option("MESH", *path, "Mesh file, .ply or .obj")->required();
    command->add_flag("--json", *json, "Print JSON instead of text");
    command->add_flag("--quiet", *quiet, "No progress line on stderr while reading (shown only on a terminal)");
    return [path, json, quiet]() {
        Mesh mesh = readMesh(*path, terminalProgress(*quiet));
        nlohmann::json report = toJson(checkMesh(mesh));
        if (*json) {
            writeJson(report, "");
            return 0;
        }
        std::printf("%s\n", path->c_str());
        for (auto& [key, value] : report.items())
            std::printf("  %-26s %s\n", key.c_str(), value.dump().c_str());
        return 0;
    };
}

} // namespace isoscope::cli
