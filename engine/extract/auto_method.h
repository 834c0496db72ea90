#pragma once
// `--method auto`: the GPU method the H100 measurements say is fastest
// (docs/BENCHMARKS.md, "Where each method wins, as landed"), among those the
// device can run. Block wherever it runs: the fastest on every volume
// measured. Where it cannot: scan below 512³ points; from 512³ up,
// histopyramid where the surface is sparse (an estimate of its triangles per
// cell from 2^17 cells drawn at random under 1.2%) and scan where it is
// dense or the samples are not on the host to estimate it.
#include <optional>
#include <string>

#include "core/device_info.h"
#include "extract/extract.h"
#include "volume/volume.h"

namespace isoscope {

struct AutoMethodChoice {
    std::string method;
    std::string why; // one line for the stats JSON and the CLI
};

// The method for `options` on `volume` at `iso` on this device
// (options.blockSize is the block method's; analytic fields only block
// evaluates). No iso: an extraction prepared for every isovalue.
AutoMethodChoice chooseAutoMethod(const DeviceInfo& device, const Volume& volume, std::optional<float> iso,
                                  const ExtractOptions& options);

// `options` with "auto" replaced by the choice (other methods unchanged).
ExtractOptions resolveAutoMethod(const DeviceInfo& device, const Volume& volume, std::optional<float> iso,
                                 ExtractOptions options);

// Marching Cubes triangles per cell at `iso`: every cell up to 2^17 of them,
// else 2^17 cells drawn at random (fixed seed); none when the samples are not
// in volume.data.
std::optional<double> estimateTriangleDensity(const Volume& volume, float iso);

} // namespace isoscope
