#pragma once
// The DVR half of `isoscope bench-raycast` (--modes dvr-…): GPU time per
// frame of each DVR mapping with the view swept around the volume's y axis,
// per direction and as min / median / max, the in-place rotation's time and
// bandwidth, as JSON (docs/BENCHMARKS.md).
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <volk.h>

#include "render/camera.h"

namespace isoscope {
class Context;
struct Volume;
}

namespace isoscope::cli {

struct DvrBenchOptions {
    std::vector<std::string> mappings; // "standard", "shaped", "rotated", "warp"
    std::string tf = "grayscale";
    float step = 0.5f;
    bool bare = false; // no skipping, no early termination: the content-independent cost
    std::vector<double> thetas;
    uint32_t warmup = 3, repeat = 10;
    double warmupMs = 0.0;
    double bandwidth = 3.09e12;
};

// Min, median, max and max ÷ min of per-direction times (both sweeps' JSON).
nlohmann::json sweepSummary(const std::vector<double>& ms);

// `sweepCamera` turns the base camera to look from direction θ (degrees).
nlohmann::json benchDvr(Context& context, const Volume& volume, VkExtent2D extent, const OrbitCamera& base,
                        OrbitCamera (*sweepCamera)(const OrbitCamera&, double), const DvrBenchOptions& options);

} // namespace isoscope::cli
