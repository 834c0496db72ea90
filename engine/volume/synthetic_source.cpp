// Synthetic fields (volume/synthetic.h) generated plane by plane, rows
// spread over every core: a 96 GiB volume is never held, only evaluated.
#include <algorithm>
#include <vector>

#include "core/error.h"
#include "core/parallel_for.h"
#include "volume/synthetic.h"
#include "volume/volume_source.h"

namespace isoscope {

namespace {

class SyntheticSource final : public VolumeSource {
public:
    SyntheticSource(Volume grid, std::string_view name) : VolumeSource(std::move(grid))
    {
        for (int axis = 0; axis < 3; ++axis) {
            coordinates_[axis].resize(grid_.dims[axis]);
            for (uint32_t i = 0; i < grid_.dims[axis]; ++i)
                coordinates_[axis][i] = syntheticCoordinate(i, grid_.dims[axis]);
        }
        // Checked once here, not on every row.
        row_ = std::is_sorted(coordinates_[0].begin(), coordinates_[0].end()) ? syntheticRowWriterForAscendingXs(name)
                                                                              : syntheticRowWriter(name);
    }

    void readPlanes(uint32_t firstPlane, uint32_t planeCount, std::byte* destination) override
    {
        checkPlanes(firstPlane, planeCount);
        uint64_t rows = uint64_t(planeCount) * grid_.dims[1];
        uint64_t rowBytes = uint64_t(grid_.dims[0]) * scalarSize(grid_.type);
        // Items of several rows: one atomic step per 64 KiB or so.
        uint64_t rowsPerItem = std::max<uint64_t>(1, (uint64_t(64) << 10) / rowBytes);
        parallelFor((rows + rowsPerItem - 1) / rowsPerItem, hostThreads(), [&](uint64_t item) {
            for (uint64_t row = item * rowsPerItem; row < std::min(rows, (item + 1) * rowsPerItem); ++row) {
                uint32_t z = firstPlane + uint32_t(row / grid_.dims[1]), y = uint32_t(row % grid_.dims[1]);
                row_(coordinates_[0].data(), grid_.dims[0], coordinates_[1][y], coordinates_[2][z], grid_.type,
                     destination + row * rowBytes);
            }
        });
    }

private:
    SyntheticRowWriter row_ = nullptr;
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
    return std::make_unique<SyntheticSource>(std::move(grid), spec.substr(0, spec.find(':')));
}

} // namespace isoscope
