#include "volume/volume_source.h"

#include "core/error.h"
#include "core/host_memory.h"
#include "volume/synthetic.h"

namespace isoscope {

void VolumeSource::checkPlanes(uint32_t firstPlane, uint32_t planeCount) const
{
    if (planeCount == 0 || firstPlane >= grid_.dims[2] || planeCount > grid_.dims[2] - firstPlane)
        fail("'" + grid_.source + "': planes " + std::to_string(firstPlane) + ".." +
             std::to_string(uint64_t(firstPlane) + planeCount) + " asked for, but the volume has " +
             std::to_string(grid_.dims[2]) + " (an engine bug)");
}

namespace {

class CallbackSource final : public VolumeSource {
public:
    CallbackSource(Volume grid, PlaneWriter write) : VolumeSource(std::move(grid)), write_(std::move(write)) {}

    void readPlanes(uint32_t firstPlane, uint32_t planeCount, std::byte* destination) override
    {
        checkPlanes(firstPlane, planeCount);
        write_(firstPlane, planeCount, destination);
    }

private:
    PlaneWriter write_;
};

} // namespace

std::unique_ptr<VolumeSource> makeCallbackSource(Volume grid, PlaneWriter write)
{
    for (uint32_t d : grid.dims)
        if (d < 2)
            fail("a streamed volume needs at least 2 samples along each axis, not " + std::to_string(grid.dims[0]) +
                 "x" + std::to_string(grid.dims[1]) + "x" + std::to_string(grid.dims[2]));
    if (!write)
        fail("a streamed volume needs a function that writes its planes");
    grid.data.clear();
    if (grid.source.empty())
        grid.source = "host callback";
    return std::make_unique<CallbackSource>(std::move(grid), std::move(write));
}

std::unique_ptr<VolumeSource> openVolumeSource(std::string_view pathOrSpec, const RawOptions& options,
                                               std::optional<ScalarType> syntheticType)
{
    std::filesystem::path path{std::string(pathOrSpec)};
    std::error_code ignored;
    if (!std::filesystem::exists(path, ignored) && isSyntheticSpec(pathOrSpec))
        return openSyntheticSource(pathOrSpec, syntheticType.value_or(ScalarType::Float32));
    return openFileSource(path, options);
}

Volume readWholeVolume(VolumeSource& source)
{
    Volume volume = source.grid();
    checkHostMemory(volume.byteSize(), "volume '" + volume.source + "'");
    volume.data.resize(size_t(volume.byteSize()));
    source.readPlanes(0, volume.dims[2], volume.data.data());
    computeStats(volume);
    return volume;
}

} // namespace isoscope
