#include <algorithm>
#include <cmath>
#include <filesystem>

#include "api/api_impl.h"
#include "dvr/transfer_function_io.h"
#include "dvr/transfer_function_presets.h"

namespace isoscope::api {

namespace {

glm::vec3 vec(const std::array<float, 3>& v) { return {v[0], v[1], v[2]}; }

void checkStep(float stepVoxels) { checkParameter("stepVoxels", stepVoxels, 0.01, 16.0); }

void checkColor(const char* name, const std::array<float, 3>& color)
{
    for (float component : color)
        checkParameter(name, component, 0.0, 1.0);
}

void apply(const IsoRaycastOptions& options, RaycastParams& params)
{
    checkStep(options.stepVoxels);
    checkColor("frontColor", options.frontColor);
    checkColor("backColor", options.backColor);
    params.mode = options.mapping == RayMapping::Auto       ? RaycastMode::Auto
                  : options.mapping == RayMapping::Subgroup ? RaycastMode::Warp
                                                            : RaycastMode::Standard;
    params.stepVoxels = options.stepVoxels;
    params.frontColor = vec(options.frontColor);
    params.backColor = vec(options.backColor);
}

void apply(const VolumeRenderingOptions& options, DvrParams& params)
{
    checkStep(options.stepVoxels);
    checkParameter("terminationOpacity", options.terminationOpacity, 0.01, 1.0);
    params.mapping = DvrMapping::Standard;
    params.stepVoxels = options.stepVoxels;
    params.terminationOpacity = options.terminationOpacity;
    params.shading = options.shading;
}

// The box in the volume's voxels, corners beyond the volume kept just beyond
// it (floats hold them; the frame clamps them to the volume).
isoscope::ClipBox indexBox(const ClipBox& box, const isoscope::Volume& volume)
{
    isoscope::ClipBox result;
    for (int axis = 0; axis < 3; ++axis) {
        if (std::isnan(box.min[axis]) || std::isnan(box.max[axis]))
            fail("the clip box's corner on axis " + std::to_string(axis) + " is NaN: give numbers (or ±infinity)");
        double a = (box.min[axis] - volume.origin[axis]) / volume.spacing[axis];
        double b = (box.max[axis] - volume.origin[axis]) / volume.spacing[axis];
        double outside = double(volume.dims[axis]) + 1.0;
        result.lo[axis] = float(std::clamp(std::min(a, b), -1.0, outside));
        result.hi[axis] = float(std::clamp(std::max(a, b), -1.0, outside));
    }
    return result;
}

TransferPoints toPoints(const TransferFunction& tf)
{
    TransferPoints result;
    for (const ColorPoint& c : tf.color)
        result.color.push_back({c.value, c.rgb.r, c.rgb.g, c.rgb.b});
    for (const OpacityPoint& o : tf.opacity)
        result.opacity.push_back({o.value, o.alpha});
    return result;
}

TransferFunction toEngine(const TransferPoints& points, std::string name)
{
    TransferFunction tf;
    tf.name = std::move(name);
    for (const auto& c : points.color)
        tf.color.push_back({c[0], glm::vec3(float(c[1]), float(c[2]), float(c[3]))});
    for (const auto& o : points.opacity)
        tf.opacity.push_back({o[0], float(o[1])});
    return tf;
}

} // namespace


Result<IsoRaycast> IsoRaycast::create(Context& context, Volume& volume, const IsoRaycastOptions& options)
{
    return guarded<IsoRaycast>(ErrorCode::InvalidArgument, [&] {
        detail::VolumeImpl& source = volume.impl();
        IsoRaycast raycast(own(new detail::IsoRaycastImpl{source, IsoRaycaster(*context.impl().context, source.field())}));
        apply(options, raycast.impl().params);
        raycast.impl().params.iso = float(0.5 * (source.volume.stats.min + source.volume.stats.max));
        IsoRaycaster* raycaster = &raycast.impl().raycaster;
        source.derivations.push_back({&raycast.impl(), [raycaster](RenderGraph& graph, const VolumeRegion& region) {
                                          raycaster->addRegionPasses(graph, region);
                                      }});
        return raycast;
    });
}

Status IsoRaycast::setIsovalue(float iso)
{
    return guardedStatus(ErrorCode::InvalidArgument, [&] {
        checkIsovalue(iso);
        impl().params.iso = iso;
    });
}
float IsoRaycast::isovalue() const { return impl().params.iso; }

Status IsoRaycast::setOptions(const IsoRaycastOptions& options)
{
    return guardedStatus(ErrorCode::InvalidArgument, [&] { apply(options, impl().params); });
}

Status IsoRaycast::setClipBox(const ClipBox& box)
{
    return guardedStatus(ErrorCode::InvalidArgument, [&] {
        impl().params.clip = indexBox(box, impl().volume.volume);
        impl().clip = box;
    });
}
ClipBox IsoRaycast::clipBox() const { return impl().clip; }

Status IsoRaycast::calibrate(VkExtent2D extent, const Camera& camera)
{
    if (extent.width == 0 || extent.height == 0)
        return Error{ErrorCode::InvalidArgument, "IsoRaycast::calibrate: the extent is empty; give the frames' size"};
    if (Status valid = guardedStatus(ErrorCode::InvalidArgument, [&] { checkCamera(camera); }); !valid)
        return valid;
    return guardedStatus(ErrorCode::DeviceUnsupported, [&] {
        isoscope::RaycastParams base = impl().params;
        base.camera = orbitCamera(camera);
        impl().calibration.reset(); // a stepped one would time what this replaces
        calibrateRaycastCostModel(impl().volume.context, impl().raycaster, extent, base);
    });
}

Result<CalibrationProgress> IsoRaycast::calibrateStep(VkExtent2D extent, const Camera& camera)
{
    if (extent.width == 0 || extent.height == 0)
        return Error{ErrorCode::InvalidArgument, "IsoRaycast::calibrateStep: the extent is empty; give the frames' size"};
    if (Status valid = guardedStatus(ErrorCode::InvalidArgument, [&] { checkCamera(camera); }); !valid)
        return valid.error();
    std::unique_ptr<isoscope::RaycastCalibration>& calibration = impl().calibration;
    Result<CalibrationProgress> result = guarded<CalibrationProgress>(ErrorCode::DeviceUnsupported, [&] {
        isoscope::Context& context = impl().volume.context;
        if (!calibration || calibration->extent().width != extent.width ||
            calibration->extent().height != extent.height) {
            isoscope::RaycastParams base = impl().params;
            base.camera = orbitCamera(camera);
            calibration.reset();
            calibration = std::make_unique<isoscope::RaycastCalibration>(context, impl().raycaster, extent, base);
        }
        VK_CHECK(waitQueueIdle(context)); // the host's frames finish first: this one is timed alone
        calibration->step();
        CalibrationProgress progress{calibration->done(), calibration->total()};
        if (calibration->finished())
            calibration.reset();
        return progress;
    });
    if (!result)
        calibration.reset();
    return result;
}
bool IsoRaycast::calibrated() const { return impl().raycaster.costModel().calibrated; }

RayMapping IsoRaycast::lastMapping() const
{
    return impl().raycaster.lastMode() == RaycastMode::Warp ? RayMapping::Subgroup : RayMapping::Invocation;
}


std::vector<std::string> transferFunctionPresets() { return transferFunctionPresetNames(); }

Result<TransferPoints> readTransferFunction(const std::string& presetOrPath, double valueMin, double valueMax)
{
    return guarded<TransferPoints>(ErrorCode::InvalidFile, [&] {
        checkParameter("valueMin", valueMin, -3.0e38, 3.0e38);
        checkParameter("valueMax", valueMax, valueMin, 3.0e38);
        return toPoints(resolveTransferFunction(presetOrPath, float(valueMin), float(valueMax)));
    });
}

Status writeTransferFunction(const TransferPoints& points, const std::string& path)
{
    TransferFunction tf = toEngine(points, "the points given to writeTransferFunction");
    if (Status valid = guardedStatus(ErrorCode::InvalidArgument, [&] { checkTransferFunction(tf); }); !valid)
        return valid;
    return guardedStatus(ErrorCode::InvalidFile, [&] {
        tf.name = std::filesystem::path(path).stem().string();
        isoscope::writeTransferFunction(tf, path);
    });
}

Result<VolumeRendering> VolumeRendering::create(Context& context, Volume& volume, const VolumeRenderingOptions& options)
{
    return guarded<VolumeRendering>(ErrorCode::InvalidArgument, [&]() -> Result<VolumeRendering> {
        detail::VolumeImpl& source = volume.impl();
        VolumeRendering rendering(
            own(new detail::VolumeRenderingImpl{source, DvrRaycaster(*context.impl().context, source.field())}));
        apply(options, rendering.impl().params);
        if (Status set = rendering.setTransferFunction("grayscale"); !set)
            return set.error();
        DvrRaycaster* dvr = &rendering.impl().dvr;
        source.derivations.push_back({&rendering.impl(), [dvr](RenderGraph& graph, const VolumeRegion& region) {
                                          dvr->addRegionPasses(graph, region);
                                      }});
        return rendering;
    });
}

Status VolumeRendering::setTransferFunction(const std::string& presetOrPath)
{
    return guardedStatus(ErrorCode::InvalidFile, [&] {
        const VolumeStats& stats = impl().volume.volume.stats;
        TransferFunction tf = resolveTransferFunction(presetOrPath, float(stats.min), float(stats.max));
        impl().dvr.setTransferFunction(tf);
        impl().transferFunction = std::move(tf);
    });
}

Status VolumeRendering::setTransferFunction(const TransferPoints& points)
{
    return guardedStatus(ErrorCode::InvalidArgument, [&] {
        TransferFunction tf = toEngine(points, "the transfer function given to setTransferFunction");
        impl().dvr.setTransferFunction(tf); // checks it (checkTransferFunction)
        impl().transferFunction = std::move(tf);
    });
}

TransferPoints VolumeRendering::transferFunction() const { return toPoints(impl().transferFunction); }

Status VolumeRendering::setClipBox(const ClipBox& box)
{
    return guardedStatus(ErrorCode::InvalidArgument, [&] {
        impl().params.clip = indexBox(box, impl().volume.volume);
        impl().clip = box;
    });
}
ClipBox VolumeRendering::clipBox() const { return impl().clip; }

Status VolumeRendering::setOptions(const VolumeRenderingOptions& options)
{
    return guardedStatus(ErrorCode::InvalidArgument, [&] { apply(options, impl().params); });
}

} // namespace isoscope::api
