#include "volume/resample.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "core/error.h"
#include "core/parallel_for.h"

namespace isoscope {

namespace {

// Where target sample i falls on the source axis: lower index and weight.
struct AxisStep {
    uint32_t lower;
    float weight;
};

std::vector<AxisStep> axisSteps(uint32_t from, uint32_t to)
{
    std::vector<AxisStep> steps(to);
    double scale = from > 1 ? double(from - 1) / double(to - 1) : 0.0;
    for (uint32_t i = 0; i < to; ++i) {
        double x = i * scale;
        uint32_t lower = std::min<uint32_t>(uint32_t(x), from >= 2 ? from - 2 : 0);
        steps[i] = {lower, from >= 2 ? float(x - lower) : 0.0f};
    }
    return steps;
}

template <typename T>
void store(uint8_t* out, uint64_t index, float v)
{
    T value;
    if constexpr (std::is_same_v<T, float>)
        value = v;
    else
        value = T(std::lround(std::clamp(v, float(std::numeric_limits<T>::min()), float(std::numeric_limits<T>::max()))));
    std::memcpy(out + index * sizeof(T), &value, sizeof(T));
}

} // namespace

Volume resampleTrilinear(const Volume& volume, std::array<uint32_t, 3> dims)
{
    for (uint32_t n : dims)
        if (n < 2)
            fail("cannot resample onto a grid with fewer than 2 samples on an axis");
    Volume out;
    out.dims = dims;
    out.type = volume.type;
    out.origin = volume.origin;
    out.source = volume.source + " resampled to " + std::to_string(dims[0]) + "x" + std::to_string(dims[1]) + "x" +
                 std::to_string(dims[2]);
    for (int a = 0; a < 3; ++a)
        out.spacing[a] = volume.spacing[a] * double(volume.dims[a] - 1) / double(dims[a] - 1);
    out.data.resize(out.byteSize());

    std::array<std::vector<AxisStep>, 3> steps;
    for (int a = 0; a < 3; ++a)
        steps[a] = axisSteps(volume.dims[a], dims[a]);
    auto at = [&](uint32_t x, uint32_t y, uint32_t z) {
        x = std::min(x, volume.dims[0] - 1);
        y = std::min(y, volume.dims[1] - 1);
        z = std::min(z, volume.dims[2] - 1);
        return volume.valueAt(volume.index(x, y, z));
    };
    uint8_t* bytes = reinterpret_cast<uint8_t*>(out.data.data());
    auto slices = [&](uint32_t first, uint32_t last) {
        for (uint32_t z = first; z < last; ++z) {
            AxisStep sz = steps[2][z];
            for (uint32_t y = 0; y < dims[1]; ++y) {
                AxisStep sy = steps[1][y];
                for (uint32_t x = 0; x < dims[0]; ++x) {
                    AxisStep sx = steps[0][x];
                    float c[2][2];
                    for (int dz = 0; dz < 2; ++dz)
                        for (int dy = 0; dy < 2; ++dy)
                            c[dz][dy] = at(sx.lower, sy.lower + dy, sz.lower + dz) * (1.0f - sx.weight) +
                                        at(sx.lower + 1, sy.lower + dy, sz.lower + dz) * sx.weight;
                    float v = (c[0][0] * (1.0f - sy.weight) + c[0][1] * sy.weight) * (1.0f - sz.weight) +
                              (c[1][0] * (1.0f - sy.weight) + c[1][1] * sy.weight) * sz.weight;
                    uint64_t index = out.index(x, y, z);
                    switch (out.type) {
                    case ScalarType::UInt8: store<uint8_t>(bytes, index, v); break;
                    case ScalarType::UInt16: store<uint16_t>(bytes, index, v); break;
                    case ScalarType::Int16: store<int16_t>(bytes, index, v); break;
                    case ScalarType::Float32: store<float>(bytes, index, v); break;
                    }
                }
            }
        }
    };
    parallelFor(dims[2], hostThreads(), [&](uint64_t z) { slices(uint32_t(z), uint32_t(z) + 1); });
    computeStats(out);
    return out;
}

} // namespace isoscope
