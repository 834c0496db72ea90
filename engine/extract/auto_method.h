#pragma once
// `--method auto`: the GPU method the H100 measurements say is fastest
// (docs/BENCHMARKS.md, "Where each method wins" and "Scan and HistoPyramid:
// classify once"), among those the device can run. On every volume measured
// there (dense Cayley, a sparse sphere, a dense gyroid, the engine CT at two
// isovalues; 256³ to 1024³ uint8) block was the fastest, by 1.1× to 7.0×
// over the next. Where block cannot run: histopyramid from 2^27 points
// (512³) up, where it was faster than scan on every volume and type
// measured (1.03× to 1.79×), and scan below, where scan was (256³ and the
// three real volumes, 1.01× to 1.26×), or where the pyramid or the volume
// does not fit one storage binding, which histopyramid needs.
#include <string>

#include "core/device_info.h"
#include "extract/extract.h"
#include "volume/volume.h"

namespace isoscope {

struct AutoMethodChoice {
    std::string method;
    std::string why; // one line for the stats JSON and the CLI
};

// The method for `options` on `volume` (its dims and type) on this device
// (options.blockSize is the block method's; analytic fields only block
// evaluates).
AutoMethodChoice chooseAutoMethod(const DeviceInfo& device, const Volume& volume, const ExtractOptions& options);

// `options` with "auto" replaced by the choice (other methods unchanged).
ExtractOptions resolveAutoMethod(const DeviceInfo& device, const Volume& volume, ExtractOptions options);

} // namespace isoscope
