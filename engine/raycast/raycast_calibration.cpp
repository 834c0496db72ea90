// The adaptive mapping's calibration (raycast_cost_model.h): both mappings
// timed on this device looking along each of the model's directions.
#include <algorithm>
#include <vector>

#include "core/context.h"
#include "core/error.h"
#include "extract/extract.h"
#include "raycast/iso_raycaster.h"

namespace isoscope {


void calibrateRaycastCostModel(Context& context, IsoRaycaster& raycaster, VkExtent2D extent,
                               const RaycastParams& base, int warmup, int repeat)
{
    for (RaycastMode mode : {RaycastMode::Standard, RaycastMode::Warp}) {
        RaycastParams params = base;
        params.mode = mode;
        RenderGraph graph(context);
        RaycastTargets targets;
        targets.color = graph.createImage("color", extent, kRayColorFormat);
        targets.depth = graph.createImage("ray depth", extent, kRayDepthFormat);
        addIsoRaycastPass(graph, raycaster, targets, params, "raycast");
        // Nothing reads the targets afterwards; keep the pass from being culled.
        graph.addPass("keep", PassKind::Compute, {{targets.color, Use::StorageImageRead}},
                      [](VkCommandBuffer, const RenderGraph&) {}, true);
        graph.compile();
        for (int j = 0; j < kCalibrationDirections; ++j) {
            params.camera = cameraLookingAlong(base.camera, raycaster.worldDirection(calibrationDirections()[j]));
            std::vector<double> samples;
            for (int run = 0; run < warmup + repeat; ++run) {
                graph.execute();
                std::vector<std::pair<std::string, double>> timings = graph.passTimings();
                if (timings.empty())
                    fail("calibrating the adaptive raycast mode needs GPU timestamps, which this device's queue "
                         "does not have: choose --mode iso-standard or iso-warp");
                if (run >= warmup)
                    samples.push_back(raycastFrameMs(timings, "raycast"));
            }
            (mode == RaycastMode::Warp ? raycaster.costModel().warpMs : raycaster.costModel().standardMs)[j] =
                median(samples);
        }
    }
    raycaster.costModel().calibrated = true;
}

} // namespace isoscope
