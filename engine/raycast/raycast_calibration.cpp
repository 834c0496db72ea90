// The adaptive mapping's calibration (raycast_cost_model.h): both mappings
// timed on this device looking along each of the model's directions.
#include <algorithm>
#include <vector>

#include "core/context.h"
#include "core/error.h"
#include "graph/frame_timing.h"
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
            double ms = medianFrameMs(graph, warmup, repeat, [](const PassTimings& t) { return raycastFrameMs(t, "raycast"); },
                                      "calibrating the adaptive raycast mode needs GPU timestamps, which this "
                                      "device's queue does not have: choose --mode iso-standard or iso-warp");
            (mode == RaycastMode::Warp ? raycaster.costModel().warpMs : raycaster.costModel().standardMs)[j] = ms;
        }
    }
    raycaster.costModel().calibrated = true;
}

} // namespace isoscope
