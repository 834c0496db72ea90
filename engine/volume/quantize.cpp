#include "volume/quantize.h"

#include <algorithm>
#include <cmath>

namespace isoscope {

namespace {

double scaleOf(const Volume& volume)
{
    double range = volume.stats.max - volume.stats.min;
    return range > 0.0 ? 255.0 / range : 0.0;
}

} // namespace

Volume quantizeToUInt8(const Volume& volume)
{
    Volume result;
    result.dims = volume.dims;
    result.spacing = volume.spacing;
    result.origin = volume.origin;
    result.type = ScalarType::UInt8;
    result.source = volume.source + " as uint8";
    result.data.resize(volume.sampleCount());
    double scale = scaleOf(volume);
    for (uint64_t i = 0; i < volume.sampleCount(); ++i) {
        float v = volume.valueAt(i);
        double q = std::isfinite(v) ? std::round((v - volume.stats.min) * scale) : 0.0;
        result.data[i] = std::byte(uint8_t(std::clamp(q, 0.0, 255.0)));
    }
    computeStats(result);
    return result;
}

double quantizedIsovalue(const Volume& original, double iso)
{
    return (iso - original.stats.min) * scaleOf(original);
}

} // namespace isoscope
