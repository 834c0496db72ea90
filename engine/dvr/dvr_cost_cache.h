#pragma once
// The DVR policy's calibration kept on disk, so that a viewer or a script
// pays its second of timing once per device and scene, not every start: one
// small JSON file per key, in the pipeline cache's folder. The key names the
// device and driver (its pipeline-cache UUID), the volume (source, grid,
// type, value statistics), the image size, the step, the skipping and
// termination settings and the transfer table's contents. A file that is
// unreadable, from another key or holds a non-positive time is ignored, never
// trusted; writing is best effort (a read-only disk is not an error).
#include <filesystem>
#include <string>

#include <volk.h>

#include "dvr/dvr_params.h"

namespace isoscope {

class Context;
class DvrRaycaster;
struct Volume;

std::string dvrCalibrationKey(const Context& context, const DvrRaycaster& dvr, const Volume& volume, VkExtent2D extent,
                              const DvrParams& params);

// Loads the cost table for `key` from `folder` into dvr.costModel(), or, when
// there is none, calibrates (calibrateDvrCostModel) and stores it. Returns
// true when it was loaded. An empty folder: calibrate, store nothing.
bool calibrateDvrCostModelCached(Context& context, DvrRaycaster& dvr, const Volume& volume, VkExtent2D extent,
                                 const DvrParams& base, const std::filesystem::path& folder);

} // namespace isoscope
