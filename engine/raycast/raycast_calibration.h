#pragma once
// The adaptive mapping's calibration (raycast_cost_model.h) as a sequence
// of timed frames: run all at once (calibrateRaycastCostModel in
// iso_raycaster.h), or a few at a time between a window's frames so that it
// never freezes (the public API's IsoRaycast::calibrateStep). Per mapping,
// per direction: `warmup` untimed frames, then `repeat` timed ones, whose
// median goes into the model; the last frame marks it calibrated.
//
//   RaycastCalibration calibration(context, raycaster, extent, base);
//   while (!calibration.finished())
//       calibration.step();   // one frame: submits and waits
#include <cstdint>
#include <memory>
#include <vector>

#include <volk.h>

#include "raycast/raycast_params.h"

namespace isoscope {

class Context;
class IsoRaycaster;
class RenderGraph;

class RaycastCalibration {
public:
    // `raycaster` must outlive this object; `base` gives the camera framing
    // (turned to each direction), the isovalue and the options.
    RaycastCalibration(Context& context, IsoRaycaster& raycaster, VkExtent2D extent, const RaycastParams& base,
                       int warmup = 2, int repeat = 5);
    ~RaycastCalibration();
    RaycastCalibration(const RaycastCalibration&) = delete;
    RaycastCalibration& operator=(const RaycastCalibration&) = delete;

    // Runs the next frame on a submission of its own and waits for it.
    // Throws Error where the queue has no timestamps.
    void step();
    bool finished() const { return done_ == total(); }
    uint32_t done() const { return done_; }
    uint32_t total() const;
    VkExtent2D extent() const { return extent_; }

private:
    Context& context_;
    IsoRaycaster& raycaster_;
    VkExtent2D extent_;
    RaycastParams base_;
    RaycastParams params_; // what graph_ reads when it records
    uint32_t warmup_, repeat_;
    uint32_t done_ = 0;
    std::unique_ptr<RenderGraph> graph_; // the mapping being timed
    std::vector<double> samples_;        // the direction being timed
};

} // namespace isoscope
