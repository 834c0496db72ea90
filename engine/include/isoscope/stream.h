#pragma once
// Isosurfaces of volumes larger than the device (or the host): extracted slab
// of z-planes by slab into one welded mesh, the same mesh as
// Isosurface::extract's, written to a file as it is made (.ply and .stl; other
// formats at the end). The volume is never whole in host or device memory:
// it comes from a raw or raw-encoded NRRD file read in place, a synthetic
// spec generated slab by slab, or the host's own callback (a simulation).
//
//   isoscope::api::StreamOptions options;
//   options.deviceBudget = uint64_t(2) << 30;                  // use at most 2 GiB of the device
//   auto stats = isoscope::api::extractStreamed(*context, "ct_2048x2048x2048_uint8.raw", 100.0f, "ct.ply", options);
//
//   auto planes = [&](uint32_t first, uint32_t count, void* out) -> isoscope::api::Status {
//       simulation.writePlanes(first, count, out);             // planes [first, first + count), x fastest
//       return {};
//   };
//   auto fromHost = isoscope::api::extractStreamed(*context, {{512, 512, 4096}, ScalarType::Float32}, planes, 0.5f,
//                                                  "field.ply", options);
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "isoscope/context.h"
#include "isoscope/isosurface.h"
#include "isoscope/result.h"
#include "isoscope/volume.h"

namespace isoscope::api {

struct StreamOptions {
    uint64_t deviceBudget = 0;  // device bytes isoscope may use; 0: the device's memory budget
    uint32_t maxSlabLayers = 0; // at most this many cell layers a slab, as the budget allows; 0: as many as the budget allows in images of at most 512 MiB
    // Block or Scan (the mesh is that method's in-core mesh, welded); HistoPyramid
    // and Dual, whose work spans the whole volume, are refused with an Error.
    Method method = Method::Block;
};

struct StreamStats {
    uint64_t vertices = 0, triangles = 0;
    uint32_t slabs = 0;
    double seconds = 0.0;          // wall clock, reading and writing included
    uint64_t peakDeviceBytes = 0;  // what isoscope held on the device at most
};

// Writes planes [firstPlane, firstPlane + planeCount) (x fastest, of the
// VolumeDesc's type) to `destination`; an Error stops the extraction with
// its message and no mesh file is left.
using PlaneWriter = std::function<Status(uint32_t firstPlane, uint32_t planeCount, void* destination)>;

// From a raw file (sizes and type in its name, as name_256x256x128_uint8.raw),
// a raw-encoded NRRD file, or a synthetic spec ("sphere:2048").
ISOSCOPE_API Result<StreamStats> extractStreamed(Context& context, std::string_view pathOrSpec, float iso,
                                                 const std::string& meshPath, const StreamOptions& options = {});
// From the host's planes.
ISOSCOPE_API Result<StreamStats> extractStreamed(Context& context, const VolumeDesc& desc, const PlaneWriter& planes,
                                                 float iso, const std::string& meshPath,
                                                 const StreamOptions& options = {});

} // namespace isoscope::api
