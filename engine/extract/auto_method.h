#pragma once
// `--method auto`: the GPU method the H100 measurements say is fastest
// (docs/BENCHMARKS.md, "Where each method wins" and "Scan and HistoPyramid:
// classify once"), among those the device can run. On every volume measured
// there (dense Cayley, a sparse sphere, a dense gyroid, the engine CT at two
// isovalues; 256³ to 1024³ uint8) block was the fastest, by 1.1× to 7.0×
// over the next. Where block cannot run: scan, faster than histopyramid on
// the dense and the real volumes (histopyramid wins only on sparse output:
// the reason text says by how much).
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
