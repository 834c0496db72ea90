#pragma once
// The files a command writes (-o, --stats) and --force. One rule for all:
// "" is refused; "-" is standard output where the output is JSON or a PNG,
// and refused (never a file named "-") where the format comes from the file
// name (meshes, NRRD); an existing regular file is replaced only with
// --force; every output is checked before the work starts, and written all or
// nothing (io/output_file.h).
#include <filesystem>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "io/output_file.h"

namespace isoscope::cli {

enum class Stdout { Allowed, Refused };

// A validator for an output option: refuses "" and, unless allowed, "-".
CLI::Validator outputName(Stdout stdoutUse);

// Adds --force, which lets the command replace existing files, to `command`.
void addForceFlag(CLI::App* command, bool& force);

inline IfExists ifExists(bool force) { return force ? IfExists::Replace : IfExists::Refuse; }

// Fails, naming the first file that could not be written, before any work:
// an existing file without --force, a folder. Empty paths are skipped (an
// output not asked for).
void checkOutputs(const std::vector<std::filesystem::path>& paths, bool force);

} // namespace isoscope::cli
