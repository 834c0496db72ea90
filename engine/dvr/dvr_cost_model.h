#pragma once
// The DVR policy (`--dvr-mapping auto`): each mapping's frame time measured
// on this device looking along the isosurface cost model's 21 directions of
// index space (raycast_cost_model.h, read the same way), and per frame the
// mapping with the lowest prediction. A mapping that does not pay on a
// device is simply never the lowest. The rotated mapping's turn (once, when
// the view crosses between facing x and not) is not in its per-frame time:
// docs/BENCHMARKS.md gives it separately. Calibrated once per raycaster
// (volume, transfer function, image size); dvr_cost_cache.h keeps it on disk.
#include <array>

#include <glm/glm.hpp>
#include <volk.h>

#include "dvr/dvr_params.h"
#include "raycast/raycast_cost_model.h"

namespace isoscope {

class Context;
class DvrRaycaster;
class RenderGraph;

constexpr std::array<DvrMapping, 4> kDvrMappings{DvrMapping::Standard, DvrMapping::Shaped, DvrMapping::Rotated,
                                                 DvrMapping::Warp};

struct DvrCostModel {
    // Per kDvrMappings entry and calibrationDirections(); infinite where a mapping cannot run.
    std::array<std::array<double, kCalibrationDirections>, kDvrMappings.size()> ms{};
    bool calibrated = false;

    double predictMs(DvrMapping mapping, glm::vec3 indexDirection) const;
    // The lowest prediction (the earlier in kDvrMappings on a tie). Throws Error before calibration.
    DvrMapping choose(glm::vec3 indexDirection) const;
};

// A frame only to be timed: `params`' DVR pass into targets nobody reads
// (kept from being culled), added to `graph`.
void addDvrTimingFrame(RenderGraph& graph, DvrRaycaster& dvr, VkExtent2D extent, const DvrParams& params);

// Times every mapping the raycaster can run along each direction (GPU
// timestamps, median of `repeat` frames after `warmup`) with `base`'s
// camera framing, at `extent`, and stores them in dvr.costModel().
void calibrateDvrCostModel(Context& context, DvrRaycaster& dvr, VkExtent2D extent, const DvrParams& base,
                           int warmup = 2, int repeat = 5);

} // namespace isoscope
