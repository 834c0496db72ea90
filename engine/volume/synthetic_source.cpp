// Synthetic fields (volume/synthetic.h) generated plane by plane, rows
// spread over every core: a 96 GiB volume is never held, only evaluated.
#include <algorithm>
#include <atomic>
#include <cstring>
#include <thread>
#include <vector>

#include "core/error.h"
#include "volume/synthetic.h"
#include "volume/volume_source.h"

namespace isoscope {

namespace {

class SyntheticSource final : public VolumeSource {
public:
    SyntheticSource(Volume grid, SyntheticFunction function) : VolumeSource(std::move(grid)), function_(function)
    {
        for (int axis = 0; axis < 3; ++axis) {
            coordinates_[axis].resize(grid_.dims[axis]);
            for (uint32_t i = 0; i < grid_.dims[axis]; ++i)
                coordinates_[axis][i] = syntheticCoordinate(i, grid_.dims[axis]);
        }
    }

    void readPlanes(uint32_t firstPlane, uint32_t planeCount, std::byte* destination) override
    {
        checkPlanes(firstPlane, planeCount);
        uint64_t rows = uint64_t(planeCount) * grid_.dims[1];
        std::atomic<uint64_t> next{0};
        auto work = [&] {
            for (uint64_t row; (row = next.fetch_add(1)) < rows;)
                writeRow(firstPlane + uint32_t(row / grid_.dims[1]), uint32_t(row % grid_.dims[1]),
                         destination + row * grid_.dims[0] * scalarSize(grid_.type));
        };
        unsigned threads = std::max(1u, std::min<unsigned>(std::thread::hardware_concurrency(), 64));
        std::vector<std::jthread> pool;
        for (unsigned t = 1; t < threads && t < rows; ++t)
            pool.emplace_back(work);
        work();
    }

private:
    void writeRow(uint32_t z, uint32_t y, std::byte* out) const
    {
        const std::vector<double>& xs = coordinates_[0];
        double yc = coordinates_[1][y], zc = coordinates_[2][z];
        if (grid_.type == ScalarType::UInt8) {
            for (size_t i = 0; i < xs.size(); ++i)
                out[i] = std::byte(syntheticByte(function_(xs[i], yc, zc)));
            return;
        }
        for (size_t i = 0; i < xs.size(); ++i) {
            float value = float(function_(xs[i], yc, zc));
            std::memcpy(out + i * sizeof(float), &value, sizeof(value));
        }
    }

    SyntheticFunction function_;
    std::vector<double> coordinates_[3];
};

} // namespace

std::unique_ptr<VolumeSource> openSyntheticSource(std::string_view spec, ScalarType type)
{
    Volume grid = makeSyntheticGrid(spec); // checks the name and sizes
    if (type != ScalarType::Float32 && type != ScalarType::UInt8)
        fail("synthetic volume '" + std::string(spec) + "': type " + std::string(scalarName(type)) +
             " is not offered; use float32 (the field) or uint8 (the field's [-1, 1] onto 0..255)");
    grid.type = type;
    return std::make_unique<SyntheticSource>(std::move(grid), syntheticFunction(spec.substr(0, spec.find(':'))));
}

} // namespace isoscope
