#include "bench_dvr.h"

#include <algorithm>
#include <cstdio>
#include <map>

#include "core/context.h"
#include "core/error.h"
#include "core/warm_up.h"
#include "dvr/dvr_raycaster.h"
#include "dvr/rotate_volume.h"
#include "dvr/transfer_function_presets.h"
#include "extract/extract.h"
#include "volume/gpu_volume.h"

namespace isoscope::cli {

namespace {

double passMs(const std::vector<std::pair<std::string, double>>& timings, const std::string& pass)
{
    for (const auto& [name, ms] : timings)
        if (name == pass)
            return ms;
    return 0.0; // skipped this frame (a condition), or no timestamps
}

} // namespace

nlohmann::json sweepSummary(const std::vector<double>& ms)
{
    std::vector<double> sorted = ms;
    std::sort(sorted.begin(), sorted.end());
    return {{"min", sorted.front()}, {"median", sorted[sorted.size() / 2]}, {"max", sorted.back()},
            {"max_over_min", sorted.back() / sorted.front()}};
}

nlohmann::json benchDvr(Context& context, const Volume& volume, VkExtent2D extent, const OrbitCamera& base,
                        OrbitCamera (*sweepCamera)(const OrbitCamera&, double), const DvrBenchOptions& options)
{
    GpuVolumeUsage usage;
    usage.squareXZMultiple = kRotationPadding; // one upload serves every mapping
    GpuVolume gpuVolume(context, volume, usage);
    DvrRaycaster dvr(context, {&volume, &gpuVolume});
    TransferFunction tf = resolveTransferFunction(options.tf, float(volume.stats.min), float(volume.stats.max));
    dvr.setTransferFunction(tf);
    Image color = context.allocator().createImage(VK_IMAGE_TYPE_2D, {extent.width, extent.height, 1}, kRayColorFormat,
                                                  VK_IMAGE_USAGE_STORAGE_BIT, "colour target");

    nlohmann::json json;
    std::map<std::string, std::vector<double>> msByMapping;
    if (std::count(options.mappings.begin(), options.mappings.end(), "auto")) {
        DvrParams calibration;
        calibration.camera = base;
        calibration.stepVoxels = options.step;
        if (options.bare) {
            calibration.skipTransparent = false;
            calibration.terminationOpacity = 1.0f;
        }
        RenderGraph warmGraph(context);
        addDvrTimingFrame(warmGraph, dvr, extent, calibration);
        warmGraph.compile();
        warmUp(options.warmup, options.warmupMs, [&] { warmGraph.execute(); });
        calibrateDvrCostModel(context, dvr, extent, calibration, int(options.warmup), int(std::max(options.repeat, 3u)));
        nlohmann::json table;
        for (size_t m = 0; m < kDvrMappings.size(); ++m)
            table[std::string(dvrMappingName(kDvrMappings[m]))] = dvr.costModel().ms[m];
        json["cost_model_ms"] = table; // per mapping, along calibrationDirections()
    }
    std::map<std::string, std::vector<std::string>> shapes;
    std::vector<double> rotateMs, classifyMs;
    for (const std::string& name : options.mappings) {
        DvrParams params;
        params.camera = sweepCamera(base, options.thetas.front());
        params.stepVoxels = options.step;
        params.mapping = *parseDvrMapping(name);
        if (options.bare) {
            params.skipTransparent = false;
            params.terminationOpacity = 1.0f;
        }
        RenderGraph graph(context);
        RaycastTargets targets;
        targets.color = graph.importImage("color", graphImage(color)); // imported: never culled
        targets.depth = graph.createImage("ray depth", extent, kRayDepthFormat);
        addDvrPass(graph, dvr, targets, params);
        graph.compile();
        warmUp(options.warmup, options.warmupMs, [&] { graph.execute(); });
        for (double theta : options.thetas) {
            params.camera = sweepCamera(base, theta);
            std::vector<double> samples;
            for (uint32_t run = 0; run < options.warmup + options.repeat; ++run) {
                graph.execute();
                auto timings = graph.passTimings();
                if (timings.empty())
                    fail("no GPU timestamps on this device's queue: nothing can be timed");
                if (double ms = passMs(timings, "rotate volume"); ms > 0.0)
                    rotateMs.push_back(ms);
                if (double ms = passMs(timings, "classify visible bricks"); ms > 0.0)
                    classifyMs.push_back(ms);
                if (run >= options.warmup)
                    samples.push_back(passMs(timings, "dvr"));
            }
            msByMapping[name].push_back(median(samples));
            DvrRaycaster::Plan plan = dvr.lastPlan();
            shapes[name].push_back(std::string(dvrMappingName(plan.mapping)) + " " + tileShapeName(plan.shape) +
                                   (plan.turns ? " turned" : ""));
        }
        dvr.restoreVolume();
    }

    json["transfer_function"] = tf.name;
    json["step_voxels"] = options.step;
    json["bare"] = options.bare;
    json["padded_dims"] = gpuVolume.imageDims();
    json["aux_device_bytes"] = dvr.auxiliaryBytes();
    if (!classifyMs.empty())
        json["classify_visible_bricks_ms"] = median(classifyMs);
    if (!rotateMs.empty()) {
        // A turn reads and writes every texel of the padded image once.
        double bytes = 2.0 * double(gpuVolume.image().extent.width) * gpuVolume.image().extent.height *
                       gpuVolume.image().extent.depth * double(volume.byteSize() / volume.sampleCount());
        double ms = median(rotateMs);
        json["rotation"] = {{"ms", ms}, {"count", rotateMs.size()}, {"bytes_moved", bytes},
                            {"bandwidth_fraction", bytes / (ms * 1e-3) / options.bandwidth}};
    }
    nlohmann::json sweep = nlohmann::json::array();
    for (size_t i = 0; i < options.thetas.size(); ++i) {
        nlohmann::json entry = {{"theta_deg", options.thetas[i]}};
        for (const auto& [name, ms] : msByMapping) {
            entry[name] = ms[i];
            entry[name + "_ran"] = shapes[name][i];
        }
        sweep.push_back(entry);
    }
    json["sweep"] = sweep;
    // Per direction, the best single mapping (the policy is judged against it).
    std::vector<double> best(options.thetas.size(), 1e300);
    for (const auto& [name, ms] : msByMapping) {
        json["summary"][name] = sweepSummary(ms);
        for (size_t i = 0; i < ms.size() && name != "auto"; ++i)
            best[i] = std::min(best[i], ms[i]);
    }
    json["summary"]["best_per_direction"] = sweepSummary(best);
    for (const auto& [name, ms] : msByMapping) {
        double worst = 0.0;
        for (size_t i = 0; i < ms.size(); ++i)
            worst = std::max(worst, ms[i] / best[i]);
        json["summary"][name]["worst_over_best"] = worst;
        nlohmann::json s = json["summary"][name];
        std::fprintf(stderr, "dvr-%s %s%s: min %.3f median %.3f max %.3f ms over %zu directions\n", name.c_str(),
                     volume.source.c_str(), options.bare ? " (bare)" : "", s["min"].get<double>(),
                     s["median"].get<double>(), s["max"].get<double>(), ms.size());
    }
    return json;
}

} // namespace isoscope::cli
