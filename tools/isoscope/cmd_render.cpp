// isoscope render: an isosurface, extracted with any method and drawn by the
// raster pass, or raycast (--mode iso-standard|iso-warp|iso-auto, optionally
// composited with a mesh of another isovalue), written as a PNG.
#include <cstdio>
#include <optional>

#include "commands.h"
#include "image_size_option.h"
#include "output_options.h"
#include "params.h"
#include "core/context.h"
#include "core/error.h"
#include "core/text.h"
#include "extract/auto_method.h"
#include "extract/extract.h"
#include "extract/gpu_extractor.h"
#include "mesh/gpu_mesh.h"
#include "io/image_io.h"
#include "core/pipeline_cache.h"
#include "dvr/dvr_cost_cache.h"
#include "dvr/transfer_function_presets.h"
#include "scene/render_dvr.h"
#include "scene/render_raycast.h"
#include "volume/gpu_volume.h"
#include "scene/render_mesh.h"
#include "volume_options.h"

namespace isoscope::cli {

namespace {

struct RenderOptions {
    double iso = 0.0;
    std::string method = "cpu";
    std::vector<double> camera;
    std::string size = "512x512";
    bool ortho = false;
    double fov = 40.0;
    std::string output;
    std::string mode = "mesh";
    double step = 0.5;
    bool noSkip = false;
    std::optional<double> meshIso;
    bool force = false;
    std::string tf = "grayscale";
    std::string dvrMapping = "standard";
    bool noShade = false;
};

// The one-line summary: on stdout, unless the PNG goes there.
FILE* summaryStream(const RenderOptions& options) { return options.output == "-" ? stderr : stdout; }

// The mesh of --mesh-iso (extracted with --method), which a raycast or DVR
// image draws first; none without the option.
struct CompositeMesh {
    std::optional<GpuMesh> mesh;
    uint64_t triangles = 0;
};

CompositeMesh compositeMesh(Context& context, const Volume& volume, const ExtractOptions& extractOptions,
                            const RenderOptions& options)
{
    CompositeMesh result;
    if (!options.meshIso)
        return result;
    ExtractOptions meshOptions = extractOptions;
    meshOptions.readBack = true;
    ExtractionReport report = extractIsosurface(context, volume, float(*options.meshIso), meshOptions);
    result.mesh = uploadMesh(context, report.mesh);
    result.triangles = report.faceCount;
    return result;
}

void printMeshSummary(FILE* out, const CompositeMesh& composite, const ExtractOptions& extractOptions,
                      const RenderOptions& options)
{
    if (composite.mesh)
        std::fprintf(out, ", mesh at %g by %s: %llu triangles", *options.meshIso, extractOptions.method.c_str(),
                     (unsigned long long)composite.triangles);
}

// The raycast image (with the mesh of --mesh-iso drawn first, when given).
int raycast(Context& context, const Volume& volume, float iso, const MeshDrawParams& meshParams, VkExtent2D extent,
            const ExtractOptions& extractOptions, const RenderOptions& options)
{
    GpuVolume gpuVolume(context, volume);
    RaycastOptions rayOptions;
    rayOptions.skipEmpty = !options.noSkip;
    IsoRaycaster raycaster(context, {&volume, &gpuVolume}, rayOptions);
    RaycastParams params;
    params.camera = meshParams.camera;
    params.iso = iso;
    params.stepVoxels = float(options.step);
    params.mode = *parseRaycastMode(options.mode);
    if (params.mode == RaycastMode::Auto)
        calibrateRaycastCostModel(context, raycaster, extent, params);

    CompositeMesh composite = compositeMesh(context, volume, extractOptions, options);
    const GpuMesh* mesh = composite.mesh ? &*composite.mesh : nullptr;
    RaycastImage rendered =
        renderRaycastImage(context, raycaster, params, extent, mesh, mesh ? &meshParams : nullptr);
    writePng(rendered.image, options.output, ifExists(options.force));

    FILE* out = summaryStream(options);
    uint64_t hits = 0;
    for (float depth : rendered.depth)
        hits += depth < 1.0f;
    std::fprintf(out, "%s (%s): %llu of %u pixels hit, %ux%u image %s", options.mode.c_str(),
                std::string(raycastModeName(rendered.mode)).c_str(), (unsigned long long)hits,
                extent.width * extent.height, extent.width, extent.height, options.output.c_str());
    if (rendered.mode == RaycastMode::Standard)
        std::fprintf(out, ", %u rays finished by the tail pass", rendered.handedOnRays);
    printMeshSummary(out, composite, extractOptions, options);
    for (const auto& [pass, ms] : rendered.gpuMsPerPass)
        std::fprintf(out, ", %s %.3f ms", pass.c_str(), ms);
    std::fprintf(out, "\n");
    return 0;
}

// The DVR image (with the mesh of --mesh-iso drawn first, when given).
int renderDvr(Context& context, const Volume& volume, const MeshDrawParams& meshParams, VkExtent2D extent,
              const ExtractOptions& extractOptions, const RenderOptions& options)
{
    DvrParams params;
    params.camera = meshParams.camera;
    params.stepVoxels = float(options.step);
    params.mapping = *parseDvrMapping(options.dvrMapping);
    params.skipTransparent = !options.noSkip;
    params.shading = !options.noShade;
    TransferFunction tf = resolveTransferFunction(options.tf, float(volume.stats.min), float(volume.stats.max));
    GpuVolumeUsage usage;
    if (params.mapping == DvrMapping::Rotated || params.mapping == DvrMapping::Auto)
        usage.squareXZMultiple = kRotationPadding;
    GpuVolume gpuVolume(context, volume, usage);
    DvrRaycaster dvr(context, {&volume, &gpuVolume});
    dvr.setTransferFunction(tf);
    // The calibration's second of timing is paid once per device and scene (dvr_cost_cache.h).
    if (params.mapping == DvrMapping::Auto)
        calibrateDvrCostModelCached(context, dvr, volume, extent, params, defaultPipelineCacheFolder());

    CompositeMesh composite = compositeMesh(context, volume, extractOptions, options);
    const GpuMesh* mesh = composite.mesh ? &*composite.mesh : nullptr;
    DvrImage rendered = renderDvrImage(context, dvr, params, extent, mesh, mesh ? &meshParams : nullptr);
    writePng(rendered.image, options.output, ifExists(options.force));

    FILE* out = summaryStream(options);
    uint64_t opaque = 0;
    for (float depth : rendered.depth)
        opaque += depth < 1.0f;
    std::fprintf(out, "dvr (%s, %s workgroups, %d quarter turns), transfer function %s: %llu of %u pixels opaque, "
                      "%ux%u image %s",
                 std::string(dvrMappingName(rendered.plan.mapping)).c_str(), tileShapeName(rendered.plan.shape),
                 rendered.plan.turns, tf.name.c_str(), (unsigned long long)opaque, extent.width * extent.height,
                 extent.width, extent.height, options.output.c_str());
    printMeshSummary(out, composite, extractOptions, options);
    for (const auto& [pass, ms] : rendered.gpuMsPerPass)
        std::fprintf(out, ", %s %.3f ms", pass.c_str(), ms);
    std::fprintf(out, "\n");
    return 0;
}

} // namespace

Run addRenderCommand(CLI::App& app)
{
    std::vector<std::string> methodNames = extractionMethods();
    methodNames.push_back("auto");
    std::string methods = join(methodNames, ", ");
    auto* command = app.add_subcommand("render", "Extract an isosurface and render it to a PNG image");
    auto args = addVolumeArguments(command);
    auto options = std::make_shared<RenderOptions>();
    command->add_option("--iso", options->iso, "Isovalue, in the data's own units (not with --mode dvr)")
        ->check(finiteNumber(-kMaxIsovalue, kMaxIsovalue));
    command->add_option("--method", options->method, "Extraction method: " + methods)
        ->check(CLI::IsMember(methodNames))
        ->capture_default_str();
    command
        ->add_option("--camera", options->camera,
                     "AZ,EL[,DIST]: azimuth about +z from +x and elevation in degrees, distance to the volume's "
                     "centre in world units (default: 30,20 and framed to fit the volume)")
        ->delimiter(',')
        ->expected(2, 3)
        ->check(finiteNumber(-360.0, 360.0, "azimuth").application_index(0))
        ->check(finiteNumber(-90.0, 90.0, "elevation").application_index(1))
        ->check(finiteNumber(kMinCameraDistance, kMaxCameraDistance, "distance").application_index(2));
    command->add_option("--size", options->size, "Image size WxH in pixels")
        ->check(imageSizeValidator())
        ->capture_default_str();
    command->add_flag("--ortho", options->ortho, "Orthographic projection (same framing as perspective)");
    command->add_option("--fov", options->fov, "Vertical field of view in degrees")
        ->check(finiteNumber(1.0, 170.0))
        ->capture_default_str();
    command->add_option("-o,--output", options->output, "PNG file to write ('-' for stdout)")
        ->check(outputName(Stdout::Allowed))
        ->required();
    addForceFlag(command, options->force);
    command
        ->add_option("--mode", options->mode,
                     "mesh: extract with --method and rasterize; iso-standard (a ray per invocation), iso-warp (a "
                     "ray per subgroup) or iso-auto (per view, the faster of the two on this device): raycast; dvr: "
                     "direct volume rendering through --tf")
        ->check(CLI::IsMember({"mesh", "iso-standard", "iso-warp", "iso-auto", "dvr"}))
        ->capture_default_str();
    command
        ->add_option("--tf", options->tf,
                     "DVR: transfer function, a preset (" + join(transferFunctionPresetNames(), ", ") +
                         ") or a file (ParaView colour-map JSON, or `value r g b a` lines)")
        ->capture_default_str();
    command
        ->add_option("--dvr-mapping", options->dvrMapping,
                     "DVR: rays onto the GPU: standard (a ray per invocation), shaped (workgroups shaped by the "
                     "view), rotated (shaped, the volume turned in place where the view faces x), warp (a ray per "
                     "subgroup) or auto (per view, the fastest on this device, timed at start-up)")
        ->check(CLI::IsMember({"standard", "shaped", "rotated", "warp", "auto"}))
        ->capture_default_str();
    command->add_option("--step", options->step, "Raycast: distance between samples along a ray, in voxels")
        ->check(finiteNumber(0.01, 64.0))
        ->capture_default_str();
    command->add_flag("--no-skip", options->noSkip, "Raycast: march every sample (no empty-space skipping)");
    command->add_flag("--no-shade", options->noShade, "DVR: no gradient shading (the transfer function's colours as they are)");
    command->add_option("--mesh-iso", options->meshIso,
                        "Raycast: also draw the mesh of this isovalue (extracted with --method) and composite the "
                        "raycast surface with it by depth")
        ->check(finiteNumber(-kMaxIsovalue, kMaxIsovalue));
    return [args, options, command]() {
        bool dvr = options->mode == "dvr";
        if (!dvr && !command->get_option("--iso")->count())
            usageError("--iso", "is required (except with --mode dvr)");
        if (options->meshIso && options->mode == "mesh")
            usageError("--mesh-iso", "composites a mesh with a raycast: give --mode iso-standard, iso-warp or iso-auto");
        checkOutputs({options->output == "-" ? "" : options->output}, options->force);
        Volume volume = args->load();
        VkExtent2D extent = parseImageSize(options->size);
        unsigned width = extent.width, height = extent.height;

        Context context;
        ExtractOptions extractOptions;
        extractOptions.method = options->method;
        float iso = float(options->iso);

        glm::vec3 lo(volume.origin[0], volume.origin[1], volume.origin[2]);
        glm::vec3 hi = lo;
        for (int axis = 0; axis < 3; ++axis)
            hi[axis] += float((volume.dims[axis] - 1) * volume.spacing[axis]);
        const std::vector<double>& angles = options->camera;
        MeshDrawParams params;
        params.camera = frameBounds(lo, hi, float(width) / float(height), angles.empty() ? 30.0f : float(angles[0]),
                                    angles.empty() ? 20.0f : float(angles[1]), float(options->fov),
                                    angles.size() == 3 ? float(angles[2]) : 0.0f);
        params.camera.orthographic = options->ortho;
        if (dvr)
            return renderDvr(context, volume, params, {width, height}, extractOptions, *options);
        if (options->mode != "mesh")
            return raycast(context, volume, iso, params, {width, height}, extractOptions, *options);
        RenderedImage rendered;
        uint64_t triangles = 0;
        if (options->method == "cpu") {
            ExtractionReport report = extractIsosurface(context, volume, iso, extractOptions);
            GpuMesh mesh = uploadMesh(context, report.mesh);
            rendered = renderMeshImage(context, mesh, params, {width, height});
            triangles = report.faceCount;
        } else {
            // Extraction and drawing in one graph: the mesh never leaves the GPU.
            // auto decides at this isovalue, not for every one as a prepared extraction would.
            PreparedExtraction prepared =
                prepareGpuExtraction(context, volume, resolveAutoMethod(context.info(), volume, iso, extractOptions));
            std::array<uint64_t, 2> capacity = prepared.extractor->estimateCapacity(iso);
            GpuMesh mesh = createGpuMesh(context, capacity[0], capacity[1], prepared.extractor->faceSize());
            GpuMeshCounters counters{};
            rendered = renderExtractionImage(context, *prepared.extractor, iso, mesh, params, {width, height}, counters);
            triangles = counters.faceCount;
        }
        writePng(rendered.image, options->output, ifExists(options->force));

        FILE* out = summaryStream(*options);
        std::fprintf(out, "%s: %llu triangles, %ux%u image %s", options->method.c_str(), (unsigned long long)triangles,
                     width, height, options->output.c_str());
        for (const auto& [pass, ms] : rendered.gpuMsPerPass)
            std::fprintf(out, ", %s %.3f ms", pass.c_str(), ms);
        std::fprintf(out, "\n");
        return 0;
    };
}

} // namespace isoscope::cli
