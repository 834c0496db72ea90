#pragma once
// The extraction options that `extract` and `bench` share: method, welding,
// block size, the scan method's pass shapes, repeat counts.
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
    uint32_t scanColumn = 0;        // scan method: 0, the rule by the slab's size
    uint32_t scanListWorkgroup = 0; // scan method: 0, the rule by the slab's size

    // Throws Error for a malformed --block, --halfedges / --colors with a method other than dual, or
    // --scan-column / --scan-list-workgroup with a method other than scan.
    ExtractOptions options() const;
};

std::shared_ptr<MethodArguments> addMethodArguments(CLI::App* command, const std::string& defaultMethod,
                                                    uint32_t defaultRepeat, uint32_t defaultWarmup, double defaultWarmupMs = 0);

} // namespace isoscope::cli
