#include "volume/quantize.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/error.h"

namespace isoscope {

namespace {

struct Scale {
    double lowest = 0.0, highest = 0.0; // the type's range
};

Scale scaleOf(ScalarType type)
{
    switch (type) {
    case ScalarType::UInt8: return {0.0, 255.0};
    case ScalarType::UInt16: return {0.0, 65535.0};
    case ScalarType::Int16: return {-32768.0, 32767.0};
    default: fail("quantize: " + std::string(scalarName(type)) + " is not an integer type; use uint8, uint16 or int16");
    }
}

double factorOf(const Volume& volume, const Scale& scale)
{
    double range = volume.stats.max - volume.stats.min;
    return range > 0.0 ? (scale.highest - scale.lowest) / range : 0.0;
}

} // namespace

Volume quantize(const Volume& volume, ScalarType type)
{
    Scale scale = scaleOf(type);
    Volume result;
    result.dims = volume.dims;
    result.spacing = volume.spacing;
    result.origin = volume.origin;
    result.type = type;
    result.source = volume.source + " as " + std::string(scalarName(type));
    result.data.resize(volume.sampleCount() * scalarSize(type));
    double factor = factorOf(volume, scale);
    for (uint64_t i = 0; i < volume.sampleCount(); ++i) {
        float v = volume.valueAt(i);
        double q = std::isfinite(v) ? std::round(scale.lowest + (v - volume.stats.min) * factor) : scale.lowest;
        q = std::clamp(q, scale.lowest, scale.highest);
        if (type == ScalarType::UInt8) {
            result.data[i] = std::byte(uint8_t(q));
        } else if (type == ScalarType::UInt16) {
            uint16_t s = uint16_t(q);
            std::memcpy(&result.data[i * 2], &s, 2);
        } else {
            int16_t s = int16_t(q);
            std::memcpy(&result.data[i * 2], &s, 2);
        }
    }
    computeStats(result);
    return result;
}

Volume quantizeToUInt8(const Volume& volume) { return quantize(volume, ScalarType::UInt8); }

double quantizedIsovalue(const Volume& original, double iso, ScalarType type)
{
    Scale scale = scaleOf(type);
    return scale.lowest + (iso - original.stats.min) * factorOf(original, scale);
}

} // namespace isoscope
