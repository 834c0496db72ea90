#include <algorithm>
#include <cmath>

#include "api/api_impl.h"
#include "volume/readers.h"
#include "volume/region_upload.h"

namespace isoscope::api {

namespace {

// One device copy serves every method and raycaster: the image always, the
// raw samples where the device has room (the block method reads them faster;
// scan and histopyramid need them).
Result<Volume> upload(isoscope::Context& context, isoscope::Volume volume, const std::byte* samples)
{
    GpuVolumeUsage usage{.image = true, .buffer = true, .bufferInRanges = true};
    try {
        checkVolumeFitsDevice(context, volume, usage);
    } catch (const isoscope::Error&) {
        usage.buffer = false;
    }
    auto gpu = std::make_unique<GpuVolume>(context, volume, usage, samples);
    return Volume(own(new detail::VolumeImpl{context, std::move(volume), std::move(gpu)}));
}

} // namespace


isoscope::Volume engineGrid(const VolumeDesc& desc, const std::string& what)
{
    isoscope::Volume volume;
    volume.dims = desc.dims;
    volume.type = isoscope::ScalarType(desc.type);
    volume.spacing = desc.spacing;
    volume.origin = desc.origin;
    for (int axis = 0; axis < 3; ++axis) {
        if (desc.dims[axis] < 2)
            fail(what + ": dims[" + std::to_string(axis) + "] is " + std::to_string(desc.dims[axis]) +
                 "; each must be at least 2");
        if (!(desc.spacing[axis] > 0.0))
            fail(what + ": spacing[" + std::to_string(axis) + "] must be a positive number");
    }
    return volume;
}

Result<Volume> Volume::load(Context& context, std::string_view pathOrSpec) { return load(context, pathOrSpec, {}); }

Result<Volume> Volume::load(Context& context, std::string_view pathOrSpec, const LoadProgress& progress)
{
    return guarded<Volume>(ErrorCode::InvalidFile, [&] {
        RawOptions options;
        if (progress)
            options.progress = [&progress](const ProgressStep& step) {
                progress({step.what, step.done, step.total, step.items});
            };
        isoscope::Volume volume = loadVolume(pathOrSpec, options);
        if (progress)
            progress({"uploading", 0, 0, {}}); // one step: the upload has no pieces to count here
        const std::byte* samples = volume.data.data(); // moving a vector keeps its storage
        return upload(*context.impl().context, std::move(volume), samples);
    });
}

Result<Volume> Volume::fromMemory(Context& context, const VolumeDesc& desc, const void* samples, size_t bytes)
{
    return guarded<Volume>(ErrorCode::InvalidArgument, [&]() -> Result<Volume> {
        isoscope::Volume volume = engineGrid(desc, "Volume::fromMemory");
        volume.source = "host memory";
        uint64_t expected = volume.sampleCount() * scalarSize(volume.type);
        if (!samples || bytes != expected)
            return Error{ErrorCode::InvalidArgument, "Volume::fromMemory: got " + std::to_string(bytes) +
                                                         " bytes; dims and type need " + std::to_string(expected)};
        // Straight from the caller's memory to the device: no host copy is
        // kept (a large NumPy array would otherwise exist twice).
        auto* bytesIn = static_cast<const std::byte*>(samples);
        computeStats(volume, bytesIn);
        return upload(*context.impl().context, std::move(volume), bytesIn);
    });
}

Status Volume::update(const Region& region, const void* samples, size_t bytes)
{
    return guardedStatus(ErrorCode::InvalidArgument, [&] {
        detail::VolumeImpl& v = impl();
        VolumeRegion box{region.offset, region.extent};
        checkRegionUpdate(v.volume, box, samples, bytes, "Volume::update");
        writeRegion(v.volume, box, samples);
        // Two graphs in one submission: the upload leaves the samples visible
        // to all later work, so the derivations' graph reads them as any frame does.
        RenderGraph upload(v.context), derive(v.context);
        Buffer staging = addRegionUploadPass(upload, v.context, *v.gpu, box, samples); // alive until the wait
        for (const RegionDerivation& derivation : v.derivations)
            derivation.addPasses(derive, box);
        upload.compile();
        derive.compile();
        v.context.submitAndWait([&](VkCommandBuffer cmd) {
            upload.record(cmd);
            if (!v.derivations.empty())
                derive.record(cmd);
        });
    });
}

VolumeDesc Volume::desc() const
{
    const isoscope::Volume& v = impl().volume;
    return {v.dims, ScalarType(v.type), v.spacing, v.origin};
}

std::array<double, 2> Volume::valueRange() const { return {impl().volume.stats.min, impl().volume.stats.max}; }

std::array<std::array<double, 3>, 2> Volume::bounds() const
{
    const isoscope::Volume& v = impl().volume;
    std::array<std::array<double, 3>, 2> box;
    for (int axis = 0; axis < 3; ++axis) {
        box[0][axis] = v.origin[axis];
        box[1][axis] = v.origin[axis] + (v.dims[axis] - 1) * v.spacing[axis];
    }
    return box;
}

Result<std::vector<uint64_t>> Volume::histogram(uint32_t bins) const
{
    return guarded<std::vector<uint64_t>>(ErrorCode::InvalidArgument, [&]() -> Result<std::vector<uint64_t>> {
        if (bins < 1 || bins > 65536)
            return Error{ErrorCode::InvalidArgument,
                         "Volume::histogram: bins is " + std::to_string(bins) + "; give 1 to 65536"};
        const isoscope::Volume& v = impl().volume;
        if (v.data.empty())
            return Error{ErrorCode::InvalidArgument,
                         "Volume::histogram: a volume made by fromMemory keeps no host copy of its samples (they "
                         "went straight to the device); histogram the array it was made from"};
        std::vector<uint64_t> counts(bins, 0);
        double lo = v.stats.min, span = v.stats.max - v.stats.min;
        uint64_t samples = v.sampleCount();
        for (uint64_t i = 0; i < samples; ++i) {
            double value = v.valueAt(i);
            if (!std::isfinite(value))
                continue;
            // A constant volume (span 0) puts every sample in bin 0.
            double t = span > 0.0 ? (value - lo) / span : 0.0;
            counts[std::min<uint64_t>(uint64_t(std::max(t, 0.0) * bins), bins - 1)]++;
        }
        return counts;
    });
}

} // namespace isoscope::api
