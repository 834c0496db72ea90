#include "raycast/raycast_calibration.h"

#include <algorithm>
#include <vector>

#include "core/context.h"
#include "core/error.h"
#include "graph/frame_timing.h"
#include "raycast/iso_raycaster.h"

namespace isoscope {


namespace {

constexpr const char* kNoTimestamps = "calibrating the adaptive raycast mode needs GPU timestamps, which this "
                                      "device's queue does not have: choose --mode iso-standard or iso-warp";

} // namespace

RaycastCalibration::RaycastCalibration(Context& context, IsoRaycaster& raycaster, VkExtent2D extent,
                                       const RaycastParams& base, int warmup, int repeat)
    : context_(context), raycaster_(raycaster), extent_(extent), base_(base), params_(base),
      warmup_(uint32_t(std::max(warmup, 0))), repeat_(uint32_t(std::max(repeat, 1)))
{
}

RaycastCalibration::~RaycastCalibration() = default;

uint32_t RaycastCalibration::total() const { return 2 * kCalibrationDirections * (warmup_ + repeat_); }

void RaycastCalibration::step()
{
    if (finished())
        return;
    const uint32_t perDirection = warmup_ + repeat_, perMapping = kCalibrationDirections * perDirection;
    const uint32_t within = done_ % perMapping, direction = within / perDirection, frame = within % perDirection;
    const RaycastMode mode = done_ < perMapping ? RaycastMode::Standard : RaycastMode::Warp;
    if (within == 0) {
        graph_.reset();
        params_ = base_;
        params_.mode = mode;
        graph_ = std::make_unique<RenderGraph>(context_);
        RaycastTargets targets;
        targets.color = graph_->createImage("color", extent_, kRayColorFormat);
        targets.depth = graph_->createImage("ray depth", extent_, kRayDepthFormat);
        addIsoRaycastPass(*graph_, raycaster_, targets, params_, "raycast");
        // Nothing reads the targets afterwards; keep the pass from being culled.
        graph_->addPass("keep", PassKind::Compute, {{targets.color, Use::StorageImageRead}},
                        [](VkCommandBuffer, const RenderGraph&) {}, true);
        graph_->compile();
    }
    if (frame == 0) {
        params_.camera = cameraLookingAlong(base_.camera, raycaster_.worldDirection(calibrationDirections()[direction]));
        samples_.clear();
    }
    graph_->execute();
    PassTimings timings = graph_->passTimings();
    if (timings.empty())
        fail(kNoTimestamps);
    if (frame >= warmup_)
        samples_.push_back(raycastFrameMs(timings, "raycast"));
    ++done_;
    if (frame + 1 == perDirection) {
        std::sort(samples_.begin(), samples_.end());
        size_t n = samples_.size();
        double ms = n % 2 ? samples_[n / 2] : 0.5 * (samples_[n / 2 - 1] + samples_[n / 2]);
        (mode == RaycastMode::Warp ? raycaster_.costModel().warpMs : raycaster_.costModel().standardMs)[direction] = ms;
    }
    if (finished()) {
        raycaster_.costModel().calibrated = true;
        graph_.reset();
    }
}

void calibrateRaycastCostModel(Context& context, IsoRaycaster& raycaster, VkExtent2D extent,
                               const RaycastParams& base, int warmup, int repeat)
{
    RaycastCalibration calibration(context, raycaster, extent, base, warmup, repeat);
    while (!calibration.finished())
        calibration.step();
}

} // namespace isoscope
