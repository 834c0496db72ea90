#pragma once
// The options every command that reads a VOLUME shares: what a raw file
// cannot say about itself.
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "volume/readers.h"

namespace isoscope::cli {

struct VolumeArguments {
    std::string volume;
    std::vector<uint32_t> dims;
    std::string type;
    std::vector<double> spacing;
    bool bigEndian = false;
    uint64_t headerBytes = 0;
    std::string series;
    bool quiet = false;

    Volume load() const;
    // The raw-file options as given (and progress), for readers that take them.
    RawOptions rawOptions() const;
};

// Adds the VOLUME positional argument and the raw-file options to `command`.
std::shared_ptr<VolumeArguments> addVolumeArguments(CLI::App* command);

} // namespace isoscope::cli
