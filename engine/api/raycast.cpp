#include "api/api_impl.h"
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
    params.mode = options.mapping == RayMapping::Subgroup ? RaycastMode::Warp : RaycastMode::Standard;
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


std::vector<std::string> transferFunctionPresets() { return transferFunctionPresetNames(); }

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
        impl().dvr.setTransferFunction(resolveTransferFunction(presetOrPath, float(stats.min), float(stats.max)));
    });
}

Status VolumeRendering::setTransferFunction(const TransferPoints& points)
{
    return guardedStatus(ErrorCode::InvalidArgument, [&] {
        TransferFunction tf;
        tf.name = "the transfer function given to setTransferFunction";
        for (const auto& c : points.color)
            tf.color.push_back({c[0], glm::vec3(float(c[1]), float(c[2]), float(c[3]))});
        for (const auto& o : points.opacity)
            tf.opacity.push_back({o[0], float(o[1])});
        impl().dvr.setTransferFunction(tf); // checks it (checkTransferFunction)
    });
}

Status VolumeRendering::setOptions(const VolumeRenderingOptions& options)
{
    return guardedStatus(ErrorCode::InvalidArgument, [&] { apply(options, impl().params); });
}

} // namespace isoscope::api
