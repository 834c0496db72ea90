#pragma once
// `--method auto`: the GPU method the H100 measurements say is fastest
// (docs/BENCHMARKS.md, "Where each method wins"), among those the device can
// run. On every volume measured there (dense Cayley, a sparse sphere, a dense
// gyroid, the engine CT at two isovalues; 256³ to 1024³ uint8) block was the
// fastest, by 1.1× to 7.0× over the next, and scan was faster than
// histopyramid in 8 of 9 cases: so block, then scan.
#include <string>

#include "core/device_info.h"
#include "extract/extract.h"

namespace isoscope {

struct AutoMethodChoice {
    std::string method;
    std::string why; // one line for the stats JSON and the CLI
};

// The method for `options` on this device (options.blockSize is the block
// method's; analytic fields only block evaluates).
AutoMethodChoice chooseAutoMethod(const DeviceInfo& device, const ExtractOptions& options);

// `options` with "auto" replaced by the choice (other methods unchanged).
ExtractOptions resolveAutoMethod(const DeviceInfo& device, ExtractOptions options);

} // namespace isoscope
