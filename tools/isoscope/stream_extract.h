#pragma once
// `isoscope extract --stream`: the volume read slab by slab
// (engine/extract/stream/), the welded mesh written as it is extracted where
// the format allows (binary PLY and STL), and a stats JSON with the
// end-to-end rate, the memory peaks and each slab's upload and extraction.
#include <cstdint>
#include <optional>
#include <string>

#include "extract/extract.h"
#include "volume/readers.h"

namespace isoscope::cli {

struct StreamRequest {
    std::string volume;        // path or synthetic spec
    RawOptions raw;            // raw files' layout
    std::optional<ScalarType> syntheticType;
    float iso = 0.0f;
    ExtractOptions method;
    uint64_t deviceBudget = 0; // 0: the device's
    uint32_t slabLayers = 0;   // at most this many cell layers a slab (0: from the budget)
    bool forced = false;       // --stream given (else chosen because the volume does not fit)
    bool measureCopy = false;  // also measure the pinned host-to-device copy rate
    bool measureSource = false; // also measure the source read and uploaded with nothing extracted
    std::string output, stats;
    bool force = false, indexSpace = false, quiet = false;
};

// Runs the streamed extraction and returns the exit code; without
// request.forced, only where the volume can be read in place (raw, raw NRRD,
// a synthetic spec) and does not fit the budget in core: nullopt otherwise
// (the caller extracts in core).
std::optional<int> runStreamedExtract(const StreamRequest& request);

} // namespace isoscope::cli
