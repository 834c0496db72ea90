#pragma once
// A scalar volume on the GPU: loaded from a file (NRRD, MetaImage, NIfTI,
// VTK, TIFF stacks, DICOM series, raw), made from an analytic field
// ("sphere:64", "cayley:128"), or copied from the host's memory.
//
//   auto volume = isoscope::api::Volume::load(context, "ct.nrrd");
//   auto wrapped = isoscope::api::Volume::fromMemory(context, {{128, 128, 64}, ScalarType::UInt16}, samples, bytes);
//   wrapped->update({{0, 0, 32}, {128, 128, 8}}, slab, slabBytes);  // time-varying data, between frames
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string_view>
#include <vector>

#include "isoscope/context.h"
#include "isoscope/handle.h"

namespace isoscope::api {

namespace detail {
struct VolumeImpl;
} // namespace detail

enum class ScalarType : uint8_t { UInt8, UInt16, Int16, Float32 };

struct VolumeDesc {
    std::array<uint32_t, 3> dims{0, 0, 0};      // samples along x, y, z (x fastest in memory)
    ScalarType type = ScalarType::Float32;
    std::array<double, 3> spacing{1.0, 1.0, 1.0}; // world units between samples
    std::array<double, 3> origin{0.0, 0.0, 0.0};  // world position of sample (0, 0, 0)
};

// What Volume::load has done: `what` it is doing ("reading 'scan.nii'",
// "uploading"), and `done` of `total` (bytes, or where `items` names them,
// slices, pages, lines; total 0: not known).
struct LoadStep {
    std::string_view what;
    uint64_t done = 0, total = 0;
    std::string_view items;
};
using LoadProgress = std::function<void(const LoadStep&)>;

class ISOSCOPE_API Volume : public detail::Handle<detail::VolumeImpl> {
public:
    using Handle::Handle;

    // A file, a folder (DICOM series or TIFF slices), a glob of slices or a
    // synthetic spec such as "sphere:64" (isoscope info lists them). May run
    // on another thread than the one drawing frames (context.h, Threads);
    // `progress`, when given, is called on the loading thread as it goes.
    static Result<Volume> load(Context& context, std::string_view pathOrSpec);
    static Result<Volume> load(Context& context, std::string_view pathOrSpec, const LoadProgress& progress);
    // `bytes` must be dims[0] * dims[1] * dims[2] samples of `type`. They go
    // straight to the device: no host copy is kept, so the caller may free
    // them when the call returns, and must not change them during it (it may
    // run on another thread than the one that owns them). A volume the
    // device cannot hold fails with the numbers (OutOfMemory beyond its
    // memory budget, InvalidArgument beyond its largest 3D image).
    static Result<Volume> fromMemory(Context& context, const VolumeDesc& desc, const void* samples, size_t bytes);

    // A box of samples: the first sample and the samples along x, y and z.
    struct Region {
        std::array<uint32_t, 3> offset{0, 0, 0};
        std::array<uint32_t, 3> extent{0, 0, 0};
    };
    // Replaces the samples of `region` with `samples` (the region's, x
    // fastest; `bytes` their size, read during the call only): in the GPU
    // copy, in the host copy where the volume keeps one (load(); fromMemory
    // keeps none), and in what each Isosurface, IsoRaycast and
    // VolumeRendering of this volume derived from them (value ranges of
    // blocks and bricks), derived again for the blocks and bricks that hold
    // the region only.
    //
    // Cost and synchronization: one submission of its own on the context's
    // queue (the upload, then the derivations) that waits on the GPU for the
    // work the host submitted before (frames in flight still reading the
    // volume), and that the call waits for: it returns with everything done,
    // so frames recorded after it see the new samples, and it stalls the CPU
    // until the frames in flight finish. (A submission of its own rather than
    // passes of the next frame: a volume serves any number of Renderers, or
    // none, as extract() does.) Call it between frames (after submitting one,
    // before recording the next), not between a record() and its submission.
    // Frames without an update() do none of this. Non-finite samples are
    // refused for a volume made without any.
    Status update(const Region& region, const void* samples, size_t bytes);

    VolumeDesc desc() const;
    // The smallest and largest finite sample at load, widened by every
    // update() to include its samples (never narrowed: that would read the
    // whole volume again).
    std::array<double, 2> valueRange() const;
    // The world-space box the samples span: {min corner, max corner}.
    std::array<std::array<double, 3>, 2> bounds() const;
    // How many samples fall in each of `bins` equal bins over valueRange()
    // (the largest value in the last bin; non-finite samples in none), from
    // the host's copy of the samples: one pass over them, no GPU work.
    // InvalidArgument when bins is not 1..65536, or for a volume made by
    // fromMemory (no host copy is kept: histogram the caller's array).
    Result<std::vector<uint64_t>> histogram(uint32_t bins) const;
};

} // namespace isoscope::api
