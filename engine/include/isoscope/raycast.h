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
//   dvr->setClipBox({{0.0, -1e30, -1e30}, {1e30, 1e30, 1e30}}); // only x >= 0 (world units)
#include <array>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "isoscope/camera.h"
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
    // Per frame, whichever of the two calibrate() measured faster looking
    // the camera's way (the two are complementary: Wang, Yang, Cao,
    // "Computation-to-core mapping strategies for iso-surface volume
    // rendering on GPUs"). A frame fails to record before calibrate().
    Auto,
};

// The part of the volume rays sample, in world units (Volume::bounds()'s
// space): the whole volume by default; a smaller box cuts it open to look
// inside. Where it reaches past the volume's bounds it stops at them; a box
// that misses the volume leaves nothing to draw. Read when a frame records.
struct ClipBox {
    std::array<double, 3> min{-std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
                              -std::numeric_limits<double>::infinity()};
    std::array<double, 3> max{std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity(),
                              std::numeric_limits<double>::infinity()};
};

// How far calibrateStep() got: frames run of all calibrate() runs.
struct CalibrationProgress {
    uint32_t done = 0;
    uint32_t total = 0;
    bool finished() const { return total > 0 && done == total; }
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

    // InvalidArgument for a NaN corner.
    Status setClipBox(const ClipBox& box);
    ClipBox clipBox() const;

    // Times both mappings on this device looking along 21 directions of the
    // volume at `extent` with `camera`'s distance and field of view
    // (frameVolume() gives one): about a hundred raycast frames on
    // submissions of its own, then it returns, the cost model stored here
    // for RayMapping::Auto. Call it between frames, at the size frames
    // render. DeviceUnsupported where the queue has no timestamps.
    Status calibrate(VkExtent2D extent, const Camera& camera);
    // calibrate() one frame at a time, for a host whose window must go on
    // drawing meanwhile: each call waits for the queue (the frames are timed
    // alone), runs and times the next of calibrate()'s frames on a
    // submission of its own, and says how far it got; the call that runs the
    // last stores the cost model. The first call's extent and camera hold
    // until then; a call with another extent starts over (a resized
    // window), as does a call after the model was stored. Between calls the
    // host draws as it likes (with RayMapping::Auto only once calibrated()).
    // Errors as calibrate()'s; the calibration then starts over.
    Result<CalibrationProgress> calibrateStep(VkExtent2D extent, const Camera& camera);
    bool calibrated() const;
    // The mapping the last recorded frame ran (Auto resolved): Invocation or Subgroup.
    RayMapping lastMapping() const;
};

// A piecewise-linear transfer function over the data's values: colour
// (0..1) and opacity per voxel of distance (0..1), each sorted by value.
struct TransferPoints {
    std::vector<std::array<double, 4>> color;   // value, r, g, b
    std::vector<std::array<double, 2>> opacity; // value, alpha
};

// The preset names setTransferFunction takes ("ct", "grayscale", ...).
ISOSCOPE_API std::vector<std::string> transferFunctionPresets();

// What setTransferFunction(presetOrPath) reads, as points a host can edit:
// a preset spread over [valueMin, valueMax] (a volume's valueRange()), or a
// file (ParaView .json, or text). InvalidFile naming the file and line.
ISOSCOPE_API Result<TransferPoints> readTransferFunction(const std::string& presetOrPath, double valueMin,
                                                         double valueMax);
// Writes points in a format readTransferFunction reads back: a ParaView
// .json (exactly these points), or for any other extension a text file of
// `value r g b a` lines, one at each point's value (the same function where
// neither list steps). InvalidArgument for invalid points, InvalidFile when
// the file cannot be written.
ISOSCOPE_API Status writeTransferFunction(const TransferPoints& points, const std::string& path);

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
    // The points of the transfer function set last (a preset's spread over the volume's range).
    TransferPoints transferFunction() const;
    Status setOptions(const VolumeRenderingOptions& options);

    // InvalidArgument for a NaN corner.
    Status setClipBox(const ClipBox& box);
    ClipBox clipBox() const;
};

} // namespace isoscope::api
