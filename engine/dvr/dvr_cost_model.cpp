#include "dvr/dvr_cost_model.h"

#include <limits>

#include "core/context.h"
#include "core/error.h"
#include "dvr/dvr_raycaster.h"
#include "graph/frame_timing.h"

namespace isoscope {

double DvrCostModel::predictMs(DvrMapping mapping, glm::vec3 indexDirection) const
{
    if (mapping == DvrMapping::Auto)
        mapping = choose(indexDirection);
    for (size_t i = 0; i < kDvrMappings.size(); ++i)
        if (kDvrMappings[i] == mapping)
            return interpolateCalibration(ms[i], indexDirection);
    return std::numeric_limits<double>::infinity();
}

DvrMapping DvrCostModel::choose(glm::vec3 indexDirection) const
{
    if (!calibrated)
        fail("the auto DVR mapping needs a calibrated cost table: call calibrateDvrCostModel first");
    DvrMapping best = kDvrMappings[0];
    double bestMs = std::numeric_limits<double>::infinity();
    for (DvrMapping mapping : kDvrMappings)
        if (double ms = predictMs(mapping, indexDirection); ms < bestMs) {
            best = mapping;
            bestMs = ms;
        }
    return best;
}

void addDvrTimingFrame(RenderGraph& graph, DvrRaycaster& dvr, VkExtent2D extent, const DvrParams& params)
{
    RaycastTargets targets;
    targets.color = graph.createImage("color", extent, kRayColorFormat);
    targets.depth = graph.createImage("ray depth", extent, kRayDepthFormat);
    addDvrPass(graph, dvr, targets, params);
    // Nothing reads the targets afterwards; keep the pass from being culled.
    graph.addPass("keep", PassKind::Compute, {{targets.color, Use::StorageImageRead}},
                  [](VkCommandBuffer, const RenderGraph&) {}, true);
}

void calibrateDvrCostModel(Context& context, DvrRaycaster& dvr, VkExtent2D extent, const DvrParams& base, int warmup,
                           int repeat)
{
    DvrCostModel& model = dvr.costModel();
    for (size_t m = 0; m < kDvrMappings.size(); ++m) {
        DvrParams params = base;
        params.mapping = kDvrMappings[m];
        if (params.mapping == DvrMapping::Rotated && !dvr.canRotate()) {
            model.ms[m].fill(std::numeric_limits<double>::infinity());
            continue;
        }
        RenderGraph graph(context);
        addDvrTimingFrame(graph, dvr, extent, params);
        graph.compile();
        for (int j = 0; j < kCalibrationDirections; ++j) {
            params.camera = cameraLookingAlong(base.camera, dvr.worldDirection(calibrationDirections()[j]));
            model.ms[m][j] = medianFrameMs(
                graph, warmup, repeat,
                [](const PassTimings& timings) {
                    for (const auto& [name, ms] : timings)
                        if (name == "dvr")
                            return ms;
                    return 0.0;
                },
                "calibrating the auto DVR mapping needs GPU timestamps, which this device's queue does not have: "
                "choose --dvr-mapping standard, shaped, rotated or warp");
        }
    }
    dvr.restoreVolume();
    model.calibrated = true;
}

} // namespace isoscope
