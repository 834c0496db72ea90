// isoscope bench-raycast: GPU time per frame of the isosurface raycasters
// and of direct volume rendering (GPU timestamps, medians) with the view
// swept around the volume's y axis, as JSON (docs/BENCHMARKS.md): each
// mapping and the adaptive mode, per direction and as min / median / max
// over the sweep (DVR: bench_dvr.h, under "dvr").
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include <nlohmann/json.hpp>

#include "bench_dvr.h"
#include "commands.h"
#include "core/context.h"
#include "core/device_info.h"
#include "core/error.h"
#include "core/warm_up.h"
#include "extract/extract.h"
#include "image_size_option.h"
#include "output_options.h"
#include "params.h"
#include "raycast/iso_raycaster.h"
#include "scene/render_raycast.h"
#include "render/image_readback.h"
#include "volume/gpu_volume.h"
#include "volume/quantize.h"
#include "volume/resample.h"
#include "volume_options.h"

namespace isoscope::cli {

namespace {

// The camera looking at the volume's centre from direction θ (degrees) in
// the xz plane: θ = 0 looks along −x (facing ZY), θ = 90 down −z (facing XY,
// the elevation clamped to 89.9° by the orbit camera).
OrbitCamera sweepCamera(const OrbitCamera& base, double thetaDeg)
{
    double theta = std::remainder(thetaDeg, 360.0); // (-180, 180]
    OrbitCamera camera = base;
    if (std::abs(theta) <= 90.0) {
        camera.azimuthDeg = 0.0f;
        camera.elevationDeg = float(theta);
    } else {
        camera.azimuthDeg = 180.0f;
        camera.elevationDeg = float(theta > 0.0 ? 180.0 - theta : -180.0 - theta);
    }
    return camera;
}

double msOf(const std::vector<std::pair<std::string, double>>& timings, const std::string& pass)
{
    for (const auto& [name, ms] : timings)
        if (name == pass)
            return ms;
    fail("no GPU timestamps for the pass '" + pass + "': this device's queue has none, so nothing can be timed");
}

} // namespace

Run addBenchRaycastCommand(CLI::App& app)
{
    auto* command = app.add_subcommand(
        "bench-raycast", "Time the isosurface raycasters over a sweep of view directions (GPU timestamps) as JSON");
    auto args = addVolumeArguments(command);
    struct Options {
        double iso = 0.0;
        bool uint8 = false;
        uint32_t resample = 0;
        std::string size = "1024x1024";
        bool ortho = false;
        double fov = 45.0;
        double sweep = 5.0;
        double step = 0.5;
        std::vector<std::string> modes{"iso-standard", "iso-warp", "iso-auto"};
        std::string tf = "grayscale";
        bool noSkip = false;
        bool pipelineStats = false;
        std::string tile = "8x8";
        uint32_t brick = 8;
        uint32_t tailBudget = RaycastOptions{}.tailBudget;
        uint32_t tailLookups = RaycastOptions{}.tailLookups;
        uint32_t macroBricks = RaycastOptions{}.macroBricks;
        uint32_t tailCycles = RaycastOptions{}.tailCyclesPerLoad;
        uint32_t repeat = 10;
        uint32_t warmup = 3;
        double warmupMs = kWarmUpMs;
        double bandwidth = 3.09e12;
        std::string output;
        bool force = false;
    };
    auto options = std::make_shared<Options>();
    command->add_option("--iso", options->iso, "Isovalue, in the data's own units (before --uint8); iso modes only")
        ->check(finiteNumber(-kMaxIsovalue, kMaxIsovalue));
    command->add_flag("--uint8", options->uint8, "Requantize the volume to uint8 (its range onto 0..255), iso with it");
    command->add_option("--resample", options->resample, "Resample the volume trilinearly onto N³ samples first")
        ->check(wholeNumber(2, 4096));
    command->add_option("--size", options->size, "Image size WxH")
        ->check(imageSizeValidator())
        ->capture_default_str();
    command->add_flag("--ortho", options->ortho, "Orthographic projection");
    command->add_option("--fov", options->fov, "Vertical field of view in degrees (perspective)")
        ->check(finiteNumber(1.0, 170.0))
        ->capture_default_str();
    command->add_option("--sweep", options->sweep, "Degrees between view directions around the y axis")
        ->check(finiteNumber(0.5, 360.0))
        ->capture_default_str();
    command->add_option("--step", options->step, "Distance between samples along a ray, in voxels")
        ->check(finiteNumber(0.01, 64.0))
        ->capture_default_str();
    command->add_option("--modes", options->modes, "Mappings to time")
        ->delimiter(',')
        ->check(CLI::IsMember({"iso-standard", "iso-warp", "iso-auto", "dvr-standard", "dvr-shaped", "dvr-rotated",
                               "dvr-warp", "dvr-auto"}));
    command->add_option("--tf", options->tf, "DVR: transfer function, a preset or a file (as render --tf)")
        ->capture_default_str();
    command->add_flag("--no-skip", options->noSkip,
                      "March every sample (no empty-space skipping; DVR: and no early termination)");
    addPipelineStatsFlag(*command, options->pipelineStats);
    command->add_option("--brick", options->brick, "Empty-space brick edge, in voxels (at least 3)")
        ->capture_default_str()
        ->check(wholeNumber(3, 64));
    command->add_option("--tail-budget", options->tailBudget,
                        "Standard mapping: dense strides a ray marches before warp marching finishes it (0: never)")
        ->check(wholeNumber(0, kMaxRuns))
        ->capture_default_str();
    command->add_option("--tail-lookups", options->tailLookups,
                        "Standard mapping: brick lookups a ray takes before warp marching finishes it, with a "
                        "tail budget (0: no limit)")
        ->check(wholeNumber(0, kMaxRuns))
        ->capture_default_str();
    command->add_option("--tail-cycles", options->tailCycles,
                        "Tail pass: warp-marching cycles whose samples are loaded together")
        ->capture_default_str()
        ->check(wholeNumber(1, 16));
    command->add_option("--macro", options->macroBricks,
                        "Standard mapping: bricks a side of the coarser skipping level (0: bricks only)")
        ->check(wholeNumber(0, 1024))
        ->capture_default_str();
    command->add_option("--tile", options->tile, "Standard mapping: pixels per workgroup, WxH")
        ->check(imageSizeValidator(kMaxTileSide))
        ->capture_default_str();
    command->add_option("--repeat", options->repeat, "Timed frames per direction (median)")
        ->check(wholeNumber(1, kMaxRuns))
        ->capture_default_str();
    command->add_option("--warmup", options->warmup, "Untimed frames before them")
        ->check(wholeNumber(0, kMaxRuns))
        ->capture_default_str();
    command->add_option("--warmup-ms", options->warmupMs,
                        "Untimed frames for at least this many milliseconds before each mode's sweep and the "
                        "calibration (GPU clocks rise under load)")
        ->check(finiteNumber(0, kMaxWarmUpMs))
        ->capture_default_str();
    command->add_option("--bandwidth", options->bandwidth, "Bytes/s for the floor estimate")
        ->check(finiteNumber(kMinBandwidth, kMaxBandwidth))
        ->capture_default_str();
    command->add_option("-o,--output", options->output, "Write the JSON to this file instead of stdout")
        ->check(outputName(Stdout::Allowed));
    addForceFlag(command, options->force);
    return [args, options, command]() {
        checkOutputs({options->output == "-" ? "" : options->output}, options->force);
        std::vector<std::string> dvrMappings;
        std::erase_if(options->modes, [&](const std::string& mode) {
            bool dvr = mode.rfind("dvr-", 0) == 0;
            if (dvr)
                dvrMappings.push_back(mode.substr(4));
            return dvr;
        });
        if (!options->modes.empty() && !command->get_option("--iso")->count())
            usageError("--iso", "is required for the iso modes");
        Volume volume = args->load();
        double iso = options->iso;
        if (options->resample)
            volume = resampleTrilinear(volume, {options->resample, options->resample, options->resample});
        if (options->uint8) {
            iso = quantizedIsovalue(volume, iso);
            volume = quantizeToUInt8(volume);
        }
        VkExtent2D extent = parseImageSize(options->size);

        ContextOptions contextOptions;
        contextOptions.capturePipelineStatistics = options->pipelineStats;
        Context context(contextOptions);
        glm::vec3 lo(volume.origin[0], volume.origin[1], volume.origin[2]);
        glm::vec3 hi = lo;
        for (int axis = 0; axis < 3; ++axis)
            hi[axis] += float((volume.dims[axis] - 1) * volume.spacing[axis]);
        OrbitCamera baseCamera =
            frameBounds(lo, hi, float(extent.width) / float(extent.height), 0.0f, 0.0f, float(options->fov));
        baseCamera.orthographic = options->ortho;
        std::vector<double> thetas;
        for (double theta = 0.0; theta < 360.0 - 1e-9; theta += options->sweep)
            thetas.push_back(theta);
        nlohmann::json json;
        if (!dvrMappings.empty()) {
            DvrBenchOptions dvrOptions;
            dvrOptions.mappings = dvrMappings;
            dvrOptions.tf = options->tf;
            dvrOptions.step = float(options->step);
            dvrOptions.bare = options->noSkip;
            dvrOptions.thetas = thetas;
            dvrOptions.warmup = options->warmup;
            dvrOptions.repeat = options->repeat;
            dvrOptions.warmupMs = options->warmupMs;
            dvrOptions.bandwidth = options->bandwidth;
            json["dvr"] = benchDvr(context, volume, extent, baseCamera, sweepCamera, dvrOptions);
            uint64_t imageBytes = uint64_t(extent.width) * extent.height * 8;
            json["dvr"]["floor_ms"] = double(imageBytes) / options->bandwidth * 1e3;
            json["dvr"]["volume_read_ms"] = double(volume.byteSize()) / options->bandwidth * 1e3;
        }
        const DeviceInfo& info = context.info();
        json["device"] = info.name;
        json["subgroup_size"] = info.subgroupSize;
        json["volume"] = volume.source;
        json["dims"] = volume.dims;
        json["type"] = scalarName(volume.type);
        json["image"] = {extent.width, extent.height};
        json["projection"] = options->ortho ? "orthographic" : "perspective";
        json["fov_deg"] = options->fov;
        json["step_voxels"] = options->step;
        json["repeat"] = options->repeat;
        json["warmup"] = options->warmup;
        json["warmup_ms"] = options->warmupMs;
        json["volume_bytes"] = volume.byteSize();
        if (options->modes.empty()) {
            writeJson(json, options->output, options->force);
            return 0;
        }
        GpuVolume gpuVolume(context, volume);
        RaycastOptions rayOptions;
        rayOptions.skipEmpty = !options->noSkip;
        VkExtent2D tile = parseImageSize(options->tile);
        rayOptions.tile = {tile.width, tile.height};
        rayOptions.brick = options->brick;
        rayOptions.tailBudget = options->tailBudget;
        rayOptions.tailLookups = options->tailLookups;
        rayOptions.macroBricks = options->macroBricks;
        rayOptions.tailCyclesPerLoad = options->tailCycles;
        IsoRaycaster raycaster(context, {&volume, &gpuVolume}, rayOptions);

        RaycastParams params;
        params.camera = baseCamera;
        params.iso = float(iso);
        params.stepVoxels = float(options->step);

        // Before the calibration, Standard frames looking along θ = 0 for at least --warmup-ms.
        Image color = context.allocator().createImage(VK_IMAGE_TYPE_2D, {extent.width, extent.height, 1},
                                                      kRayColorFormat, VK_IMAGE_USAGE_STORAGE_BIT, "colour target");
        auto warmUpGpu = [&] {
            RaycastParams warmParams = params;
            warmParams.mode = RaycastMode::Standard;
            warmParams.camera = sweepCamera(params.camera, 0.0);
            RenderGraph graph(context);
            RaycastTargets targets;
            targets.color = graph.importImage("color", graphImage(color));
            targets.depth = graph.createImage("ray depth", extent, kRayDepthFormat);
            addIsoRaycastPass(graph, raycaster, targets, warmParams);
            graph.compile();
            warmUp(options->warmup, options->warmupMs, [&] { graph.execute(); });
        };

        bool timeAuto = std::count(options->modes.begin(), options->modes.end(), "iso-auto") > 0;
        if (timeAuto) {
            warmUpGpu();
            calibrateRaycastCostModel(context, raycaster, extent, params, int(options->warmup),
                                      int(std::max(options->repeat, 3u)));
            const RaycastCostModel& model = raycaster.costModel();
            // Along x, y, z, xy, xz, yz, xyz (raycast_cost_model.h).
            json["cost_model"] = {{"standard_ms", model.standardMs}, {"warp_ms", model.warpMs}};
        }

        // The colour target (above) is imported (the host's), so the raycast is never culled.
        // Per direction: which pixels hit (from the last frame's depth) and,
        // for the Standard mapping, how many rays its tail pass finished.
        Buffer depthReadback = createReadbackBuffer(context, extent);
        Buffer tailCount = createTailCountReadback(context);
        std::vector<uint64_t> hitPixels;
        std::map<std::string, std::vector<double>> msByMode;
        std::map<std::string, std::vector<double>> tailMsByMode;
        std::map<std::string, std::vector<uint32_t>> handedOnByMode;
        std::vector<std::string> autoChoices;
        double classifyMs = 0.0;
        for (const std::string& modeName : options->modes) {
            RaycastParams modeParams = params;
            modeParams.mode = *parseRaycastMode(modeName);
            RenderGraph graph(context);
            RaycastTargets targets;
            targets.color = graph.importImage("color", graphImage(color));
            targets.depth = graph.createImage("ray depth", extent, kRayDepthFormat);
            ResourceId tailRays = addIsoRaycastPass(graph, raycaster, targets, modeParams);
            addReadbackPass(graph, targets.depth, depthReadback);
            addTailCountReadback(graph, tailRays, tailCount);
            graph.compile();
            // The mode's own graph, looking along the sweep's first direction.
            modeParams.camera = sweepCamera(params.camera, thetas.front());
            warmUp(options->warmup, options->warmupMs, [&] { graph.execute(); });
            if (classifyMs == 0.0) {
                raycaster.invalidateBrickClasses();
                graph.execute();
                classifyMs = msOf(graph.passTimings(), "classify bricks");
            }
            for (double theta : thetas) {
                modeParams.camera = sweepCamera(params.camera, theta);
                std::vector<double> samples, tailSamples;
                for (uint32_t run = 0; run < options->warmup + options->repeat; ++run) {
                    graph.execute();
                    if (run >= options->warmup) {
                        auto timings = graph.passTimings();
                        samples.push_back(raycastFrameMs(timings, "raycast"));
                        tailSamples.push_back(msOf(timings, "raycast tail"));
                    }
                }
                msByMode[modeName].push_back(median(samples));
                tailMsByMode[modeName].push_back(median(tailSamples));
                handedOnByMode[modeName].push_back(readTailCount(tailCount));
                if (hitPixels.size() < thetas.size()) {
                    std::vector<float> depth = readFloats(depthReadback, extent);
                    hitPixels.push_back(uint64_t(std::count_if(depth.begin(), depth.end(), [](float d) { return d < 1.0f; })));
                }
                if (modeParams.mode == RaycastMode::Auto)
                    autoChoices.emplace_back(raycastModeName(raycaster.lastMode()));
            }
        }

        json["iso"] = iso;
        json["iso_given"] = options->iso;
        json["empty_space_skipping"] = !options->noSkip;
        json["brick"] = raycaster.options().brick;
        json["tail_budget"] = raycaster.options().tailBudget;
        json["tail_lookups"] = raycaster.options().tailLookups;
        json["macro_bricks"] = raycaster.options().macroBricks;
        json["tail_cycles_per_load"] = raycaster.options().tailCyclesPerLoad;
        json["tile_standard"] = raycaster.options().tile;
        json["tile_warp_rays"] = raycaster.options().warpTile;
        json["classify_bricks_ms"] = classifyMs;
        json["aux_device_bytes"] = raycaster.auxiliaryBytes();
        // The least any frame must move: write its colour and depth once.
        // Reading the whole volume once is given beside it for scale; an
        // isosurface raycast with skipping needs far less of it.
        uint64_t imageBytes = uint64_t(extent.width) * extent.height * 8;
        json["floor_ms"] = double(imageBytes) / options->bandwidth * 1e3;
        json["volume_read_ms"] = double(volume.byteSize()) / options->bandwidth * 1e3;
        nlohmann::json sweep = nlohmann::json::array();
        for (size_t i = 0; i < thetas.size(); ++i) {
            nlohmann::json entry = {{"theta_deg", thetas[i]}};
            for (const auto& [mode, ms] : msByMode) {
                entry[mode] = ms[i];
                entry[mode + "_tail_ms"] = tailMsByMode[mode][i];
                entry[mode + "_handed_on"] = handedOnByMode[mode][i];
            }
            entry["hit_pixels"] = hitPixels[i];
            if (!autoChoices.empty())
                entry["auto_choice"] = autoChoices[i];
            sweep.push_back(entry);
        }
        json["sweep"] = sweep;
        for (const auto& [mode, ms] : msByMode)
            json["summary"][mode] = sweepSummary(ms);
        if (msByMode.count("iso-standard") && msByMode.count("iso-warp")) {
            // Per direction, the better mapping, and how far each mode is from it.
            std::vector<double> best;
            for (size_t i = 0; i < thetas.size(); ++i)
                best.push_back(std::min(msByMode["iso-standard"][i], msByMode["iso-warp"][i]));
            json["summary"]["best_of_two"] = sweepSummary(best);
            for (const auto& [mode, ms] : msByMode) {
                double worst = 0.0;
                for (size_t i = 0; i < thetas.size(); ++i)
                    worst = std::max(worst, ms[i] / best[i]);
                json["summary"][mode]["worst_over_best_of_two"] = worst;
            }
        }
        if (options->pipelineStats)
            json["pipelines"] = pipelineStatisticsJson(context);
        writeJson(json, options->output, options->force);
        for (const auto& [mode, ms] : msByMode) {
            nlohmann::json s = sweepSummary(ms);
            std::fprintf(stderr, "%s %s %s: min %.3f median %.3f max %.3f ms over %zu directions\n", mode.c_str(),
                         volume.source.c_str(), options->ortho ? "ortho" : "persp", s["min"].get<double>(),
                         s["median"].get<double>(), s["max"].get<double>(), thetas.size());
        }
        return 0;
    };
}

} // namespace isoscope::cli
