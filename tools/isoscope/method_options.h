#pragma once
// The extraction options that `extract` and `bench` share: method, welding,
// block size, repeat counts.
#include <memory>
#include <string>

#include <CLI/CLI.hpp>

#include "extract/extract.h"

namespace isoscope::cli {

struct MethodArguments {
    std::string method = "cpu";
    bool noWeld = false;
    std::string block = "8x4x4";
    uint32_t repeat = 1;
    uint32_t warmup = 0;
    double warmupMs = 0;
    bool halfedges = false; // dual method
    bool colors = false;    // dual method

    // Throws Error for a malformed --block, or --halfedges / --colors with a method other than dual.
    ExtractOptions options() const;
};

std::shared_ptr<MethodArguments> addMethodArguments(CLI::App* command, const std::string& defaultMethod,
                                                    uint32_t defaultRepeat, uint32_t defaultWarmup, double defaultWarmupMs = 0);

} // namespace isoscope::cli
