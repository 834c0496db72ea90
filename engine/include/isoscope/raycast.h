#pragma once
// Raycasting a volume on the GPU: an isosurface (IsoRaycast: rays stop at
// the isovalue, shaded by the gradient) or direct volume rendering
// (VolumeRendering: colour and opacity composited front to back through a
// transfer function). Either is added to a Renderer, which records it after
// the meshes so that rays stop at what was drawn before them.
//
//   auto ray = isoscope::api::IsoRaycast::create(context, *volume);
//   ray->setIsovalue(0.5f);
//   auto dvr = isoscope::api::VolumeRendering::create(context, *volume);
//   dvr->setTransferFunction("ct");           // a preset, a ParaView .json or a text file
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "isoscope/context.h"
#include "isoscope/handle.h"
#include "isoscope/volume.h"

namespace isoscope::api {

namespace detail {
struct IsoRaycastImpl;
struct VolumeRenderingImpl;
} // namespace detail

enum class RayMapping {
    Invocation, // one invocation per ray, a workgroup per tile of pixels
    Subgroup,   // one subgroup per ray
};

struct IsoRaycastOptions {
    RayMapping mapping = RayMapping::Invocation;
    float stepVoxels = 0.5f;                             // distance between samples, in voxels
    std::array<float, 3> frontColor{0.85f, 0.62f, 0.32f}; // the side the gradient points away from
    std::array<float, 3> backColor{0.35f, 0.55f, 0.85f};
};

class ISOSCOPE_API IsoRaycast : public detail::Handle<detail::IsoRaycastImpl> {
public:
    using Handle::Handle;

    static Result<IsoRaycast> create(Context& context, Volume& volume, const IsoRaycastOptions& options = {});

    Status setIsovalue(float iso); // read when a frame records; InvalidArgument when not finite
    float isovalue() const;
    Status setOptions(const IsoRaycastOptions& options);
};

// A piecewise-linear transfer function over the data's values: colour
// (0..1) and opacity per voxel of distance (0..1), each sorted by value.
struct TransferPoints {
    std::vector<std::array<double, 4>> color;   // value, r, g, b
    std::vector<std::array<double, 2>> opacity; // value, alpha
};

// The preset names setTransferFunction takes ("ct", "grayscale", ...).
ISOSCOPE_API std::vector<std::string> transferFunctionPresets();

struct VolumeRenderingOptions {
    float stepVoxels = 0.5f;
    float terminationOpacity = 0.99f; // a ray stops once this opaque
    bool shading = true;              // gradient shading of samples opaque enough
};

class ISOSCOPE_API VolumeRendering : public detail::Handle<detail::VolumeRenderingImpl> {
public:
    using Handle::Handle;

    // Starts with the "grayscale" preset over the volume's value range.
    static Result<VolumeRendering> create(Context& context, Volume& volume,
                                          const VolumeRenderingOptions& options = {});

    // A preset name (isoscope info lists them; spread over the volume's
    // value range), a ParaView colour-map .json or a text file of
    // `value r g b a` lines. Uploads the table: a submission of its own.
    Status setTransferFunction(const std::string& presetOrPath);
    Status setTransferFunction(const TransferPoints& points);
    Status setOptions(const VolumeRenderingOptions& options);
};

} // namespace isoscope::api
