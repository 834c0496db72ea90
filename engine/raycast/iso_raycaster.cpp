#include "raycast/iso_raycaster.h"

#include <cstddef>

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/context.h"
#include "core/error.h"
#include "core/vk_check.h"
#include "raycast/ray_setup.h"
#include "volume/gpu_volume.h"

namespace isoscope {

// `RaycastParameters` in shaders/raycast/raycast_common.glsl.
struct RaycastPushConstants {
    glm::vec3 eye;
    float iso;
    glm::vec3 forward;
    float nearPlane;
    glm::vec3 right;
    float farPlane;
    glm::vec3 down;
    uint32_t flags;
    glm::vec3 origin;
    float step;
    glm::vec3 inverseSpacing;
    float valueScale;
    glm::ivec3 dims;
    uint32_t clearColor;
    glm::uvec2 extent;
    uint32_t frontColor;
    uint32_t backColor;
};
static_assert(sizeof(RaycastPushConstants) == 128);

namespace {

constexpr uint32_t kOrthographic = 1, kClear = 2, kSceneDepth = 4;

struct ClassifyPushConstants {
    uint32_t brickCounts[3];
    float iso;
};

// The C++ sides of the shaders' push-constant blocks, member by member (checkPushLayout).
std::vector<PushMember> raycastPushMembers()
{
    return rayPushMembers<RaycastPushConstants>(
        {ISOSCOPE_PUSH_MEMBER(RaycastPushConstants, iso), ISOSCOPE_PUSH_MEMBER(RaycastPushConstants, step),
         ISOSCOPE_PUSH_MEMBER(RaycastPushConstants, frontColor), ISOSCOPE_PUSH_MEMBER(RaycastPushConstants, backColor)});
}

std::vector<PushMember> classifyPushMembers()
{
    return {ISOSCOPE_PUSH_MEMBER(ClassifyPushConstants, brickCounts), ISOSCOPE_PUSH_MEMBER(ClassifyPushConstants, iso)};
}

} // namespace

IsoRaycaster::SkipLevel::SkipLevel(Context& context, const FieldSource& field, uint32_t edge, const char* what)
    : ranges(context, field, {edge, edge, edge}, RangeCoverage::Voxels),
      classes(context.allocator().createBuffer((ranges.blockCount() + 3) / 4 * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                               MemoryUsage::DeviceLocal, what))
{
}

IsoRaycaster::IsoRaycaster(Context& context, const FieldSource& field, const RaycastOptions& options)
    : context_(context), options_(options), volume_(field.gpuVolume),
      bricks_(context, field, options.brick, "raycast brick classes"), sceneDepth_(context)
{
    if (!field.gpuVolume || !field.gpuVolume->image().view)
        fail("the isosurface raycaster needs the volume as a 3D image on the GPU");
    if (field.gpuVolume->padded())
        fail("the isosurface raycaster samples the volume's image unpadded: upload it without squareXZMultiple");
    const Volume& volume = *field.volume;
    for (int i = 0; i < 3; ++i) {
        dims_[i] = volume.dims[i];
        origin_[i] = float(volume.origin[i]);
        spacing_[i] = float(volume.spacing[i]);
    }
    const DeviceInfo& info = context.info();
    options_.tile = fitTile(options.tile, 1, info);
    options_.warpTile = fitTile(options.warpTile, info.subgroupSize, info);

    if (!options.skipEmpty || uint64_t(options.macroBricks) * options.brick >=
                                  std::max({dims_[0], dims_[1], dims_[2]}))
        options_.macroBricks = 0; // one cell would hold the whole volume
    if (options_.macroBricks)
        macro_.emplace(context, field, options_.macroBricks * options.brick, "raycast macro-cell classes");

    SpecValues common = {{"BRICK", options.brick}, {"SKIP_EMPTY", options.skipEmpty ? 1u : 0u}};
    SpecValues standard = common, warp = common;
    const uint32_t warpRays = options_.warpTile[0] * options_.warpTile[1];
    standard.insert(standard.end(), {{"TILE_X", options_.tile[0]},
                                     {"TILE_Y", options_.tile[1]},
                                     {"TAIL_BUDGET", options.tailBudget},
                                     {"TAIL_LOOKUPS", options.tailLookups},
                                     {"TAIL_RAYS_PER_GROUP", warpRays},
                                     {"TAIL_MAX_GROUPS", info.maxComputeWorkGroupCount[0]},
                                     {"MACRO_BRICKS", options_.macroBricks}});
    warp.insert(warp.end(), {{"TILE_X", options_.warpTile[0]},
                             {"TILE_Y", options_.warpTile[1]},
                             {"WORKGROUP_SIZE", warpRays * info.subgroupSize}});
    SpecValues tail = warp;
    tail.insert(tail.end(), {{"TAIL_RAYS", 1u}, {"CYCLES_PER_LOAD", options.tailCyclesPerLoad}});
    standard_.emplace(context, loadShader("raycast/iso_standard"), standard);
    warp_.emplace(context, loadShader("raycast/iso_warp"), warp);
    tail_.emplace(context, loadShader("raycast/iso_warp"), tail);
    classify_.emplace(context, loadShader("raycast/classify_bricks"));
    for (const ComputeProgram* program : {&*standard_, &*warp_, &*tail_})
        checkPushLayout(program->name(), program->pushMembers(), raycastPushMembers());
    checkPushLayout(classify_->name(), classify_->pushMembers(), classifyPushMembers());

    // The ranges depend on the samples only: computed once.
    bricks_.ranges.computeNow();
    if (macro_)
        macro_->ranges.computeNow();
}

void IsoRaycaster::addRegionPasses(RenderGraph& graph, const VolumeRegion& region)
{
    bricks_.ranges.addRegionPass(graph, region, "brick value ranges of a region");
    if (macro_)
        macro_->ranges.addRegionPass(graph, region, "macro-cell value ranges of a region");
    invalidateBrickClasses();
}

uint64_t IsoRaycaster::auxiliaryBytes() const
{
    uint64_t bytes = bricks_.ranges.allocatedBytes() + bricks_.classes.allocated + sceneDepth_.allocatedBytes();
    if (macro_)
        bytes += macro_->ranges.allocatedBytes() + macro_->classes.allocated;
    return bytes;
}

glm::vec3 IsoRaycaster::indexDirection(const OrbitCamera& camera) const
{
    return glm::normalize(-cameraBackward(camera) / spacing_);
}

glm::vec3 IsoRaycaster::worldDirection(glm::vec3 indexDirection) const
{
    return glm::normalize(indexDirection * spacing_);
}

RaycastMode IsoRaycaster::resolveMode(const RaycastParams& params) const
{
    return params.mode == RaycastMode::Auto ? costModel_.choose(indexDirection(params.camera)) : params.mode;
}

void IsoRaycaster::recordClassify(VkCommandBuffer cmd, const SkipLevel& level, float iso) const
{
    std::array<uint32_t, 3> counts = level.ranges.blockCounts();
    ClassifyPushConstants constants{{counts[0], counts[1], counts[2]}, iso};
    classify_->bind(cmd, {{level.ranges.buffer().buffer}, {level.classes.buffer}}, &constants, sizeof(constants));
    classify_->dispatchLine(cmd, ceilDiv((level.ranges.blockCount() + 3) / 4, classify_->localSize()[0]));
}

RaycastPushConstants IsoRaycaster::pushConstants(const RenderGraph& graph, const RaycastTargets& targets,
                                                 const RaycastParams& params) const
{
    const GraphImage& color = graph.image(targets.color);
    VkExtent2D extent = color.extent;
    RayCamera camera = rayCamera(params.camera, extent);

    RaycastPushConstants constants{};
    constants.eye = camera.eye;
    constants.iso = params.iso;
    constants.forward = camera.forward;
    constants.nearPlane = camera.nearPlane;
    constants.right = camera.right;
    constants.farPlane = camera.farPlane;
    constants.down = camera.down;
    constants.flags = (camera.orthographic ? kOrthographic : 0) | (params.clear ? kClear : 0) |
                      (targets.sceneDepth != kNoResource ? kSceneDepth : 0);
    constants.origin = origin_;
    constants.step = params.stepVoxels;
    constants.inverseSpacing = 1.0f / spacing_;
    constants.valueScale = volume_->valueScale();
    constants.dims = glm::ivec3(dims_[0], dims_[1], dims_[2]);
    constants.clearColor = packColor(params.clearColor);
    constants.extent = {extent.width, extent.height};
    constants.frontColor = packColor(glm::vec4(params.frontColor, 1.0f));
    constants.backColor = packColor(glm::vec4(params.backColor, 1.0f));
    return constants;
}

IsoRaycaster::Bindings IsoRaycaster::bindings(const RenderGraph& graph, const RaycastTargets& targets,
                                              const TargetResources& t) const
{
    VkImageView scene = graph.image(t.sceneDepth).view;
    return {DescriptorInfo(volume_->linearSampler(), graph.image(t.volume).view, VK_IMAGE_LAYOUT_GENERAL),
            DescriptorInfo(bricks_.classes.buffer),
            DescriptorInfo(VK_NULL_HANDLE, graph.image(targets.color).view, VK_IMAGE_LAYOUT_GENERAL),
            DescriptorInfo(VK_NULL_HANDLE, graph.image(targets.depth).view, VK_IMAGE_LAYOUT_GENERAL),
            DescriptorInfo(sceneDepth_.sampler(), scene, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL)};
}

void IsoRaycaster::recordRaycast(VkCommandBuffer cmd, const RenderGraph& graph, const RaycastTargets& targets,
                                 const TargetResources& t, const TailBuffers& tail, const RaycastParams& params)
{
    RaycastPushConstants constants = pushConstants(graph, targets, params);
    Bindings b = bindings(graph, targets, t);
    VkExtent2D extent = graph.image(targets.color).extent;
    lastMode_ = resolveMode(params);
    if (lastMode_ == RaycastMode::Warp) {
        warp_->bind(cmd, {b[0], b[1], b[2], b[3], b[4], {graph.buffer(tail.rays)}, {graph.buffer(t.clip)}}, &constants,
                    sizeof constants);
        warp_->dispatch(cmd, groupCount(extent.width, options_.warpTile[0]),
                        groupCount(extent.height, options_.warpTile[1]));
    } else {
        // Without a macro level the brick classes stand in (MACRO_BRICKS = 0 never reads them).
        VkBuffer macroClasses = macro_ ? macro_->classes.buffer : bricks_.classes.buffer;
        standard_->bind(cmd,
                        {b[0], b[1], b[2], b[3], b[4], {graph.buffer(tail.rays)}, {graph.buffer(t.clip)},
                         {graph.buffer(tail.dispatch)}, {macroClasses}},
                        &constants, sizeof constants);
        standard_->dispatch(cmd, groupCount(extent.width, options_.tile[0]), groupCount(extent.height, options_.tile[1]));
    }
}

void IsoRaycaster::recordTail(VkCommandBuffer cmd, const RenderGraph& graph, const RaycastTargets& targets,
                              const TargetResources& t, const TailBuffers& tail, const RaycastParams& params)
{
    if (!handsOnTails())
        return;
    RaycastPushConstants constants = pushConstants(graph, targets, params);
    Bindings b = bindings(graph, targets, t);
    tail_->bind(cmd, {b[0], b[1], b[2], b[3], b[4], {graph.buffer(tail.rays)}, {graph.buffer(t.clip)}}, &constants,
                sizeof constants);
    // The Standard pass sized it: as many workgroups as its rays need, up to the device's limit.
    vkCmdDispatchIndirect(cmd, graph.buffer(tail.dispatch), 0);
}

ResourceId addIsoRaycastPass(RenderGraph& graph, IsoRaycaster& raycaster, const RaycastTargets& targets,
                             const RaycastParams& params, const std::string& name)
{
    if (params.mode == RaycastMode::Auto && !raycaster.costModel().calibrated)
        fail("the adaptive raycast mode needs a calibrated cost model: call calibrateRaycastCostModel first");
    if (!(params.stepVoxels > 0.0f))
        fail("the raycast step must be a positive number of voxels, not " + std::to_string(params.stepVoxels));
    IsoRaycaster& r = raycaster;
    // The classes depend on the isovalue only: an unchanged one keeps them.
    auto classifyNeeded = [&r, &params] { return !r.classifiedIso_ || *r.classifiedIso_ != params.iso; };
    ResourceId classes = graph.importBuffer("brick classes", r.bricks_.classes.buffer);
    ResourceId ranges = graph.importBuffer("brick value ranges", r.bricks_.ranges.buffer().buffer);
    graph.addComputePass("classify bricks", *r.classify_, {{ranges, Use::StorageRead, 0}, {classes, Use::StorageWrite, 1}},
                         [&r, &params](VkCommandBuffer cmd, const RenderGraph&) {
                             r.recordClassify(cmd, r.bricks_, params.iso);
                             if (!r.macro_)
                                 r.classifiedIso_ = params.iso;
                         });
    graph.setCondition(classifyNeeded);
    // Without a macro level the brick classes stand in (MACRO_BRICKS = 0 never reads them).
    ResourceId macroClasses = classes;
    if (r.macro_) {
        macroClasses = graph.importBuffer("macro-cell classes", r.macro_->classes.buffer);
        ResourceId macroRanges = graph.importBuffer("macro-cell value ranges", r.macro_->ranges.buffer().buffer);
        graph.addComputePass("classify macro cells", *r.classify_,
                             {{macroRanges, Use::StorageRead, 0}, {macroClasses, Use::StorageWrite, 1}},
                             [&r, &params](VkCommandBuffer cmd, const RenderGraph&) {
                                 r.recordClassify(cmd, *r.macro_, params.iso);
                                 r.classifiedIso_ = params.iso;
                             });
        graph.setCondition(classifyNeeded);
    }

    // At most every pixel's ray is handed on: the list's header and one entry a pixel.
    VkExtent2D extent = graph.desc().resources.at(targets.color).extent;
    if (extent.width > 65535 || extent.height > 65535)
        fail("a raycast target of " + std::to_string(extent.width) + "x" + std::to_string(extent.height) +
             " pixels: the tail list packs a pixel into 16 bits a coordinate; render at most 65535 a side");
    IsoRaycaster::TailBuffers tail;
    tail.rays = graph.createBuffer(name + " tail rays", 16 + 8 * VkDeviceSize(extent.width) * extent.height);
    tail.dispatch = graph.createBuffer(name + " tail dispatch", 16);
    graph.addPass(name + " tail reset", PassKind::Transfer,
                  {{tail.rays, Use::TransferDst}, {tail.dispatch, Use::TransferDst}},
                  [tail](VkCommandBuffer cmd, const RenderGraph& g) {
                      const uint32_t noRays[4] = {0, 0, 0, 0}, noGroups[4] = {0, 1, 1, 0};
                      vkCmdUpdateBuffer(cmd, g.buffer(tail.rays), 0, sizeof noRays, noRays);
                      vkCmdUpdateBuffer(cmd, g.buffer(tail.dispatch), 0, sizeof noGroups, noGroups);
                  });

    // The bindings every raycast shader shares (raycast_common.glsl).
    IsoRaycaster::TargetResources t;
    t.volume = importVolumeImage(graph, *r.volume_, name + " volume");
    t.sceneDepth = r.sceneDepth_.resolve(graph, targets.sceneDepth, name + " far depth");
    t.clip = addRayClipPass(graph, params.clip, r.dims_, name);
    auto commonUses = [&](Use rays) {
        return std::vector<ResourceUse>{{t.volume, Use::Sampled, 0},           {classes, Use::StorageRead, 1},
                                        {targets.color, Use::StorageImageWrite, 2},
                                        {targets.depth, Use::StorageImageWrite, 3},
                                        {t.sceneDepth, Use::Sampled, 4},       {tail.rays, rays, 5},
                                        {t.clip, Use::StorageRead, 6}};
    };
    std::vector<ResourceUse> uses = commonUses(Use::StorageWrite);
    uses.insert(uses.end(), {{tail.dispatch, Use::StorageWrite, 7}, {macroClasses, Use::StorageRead, 8}});
    graph.addComputePass(name, {&*r.standard_, &*r.warp_}, uses,
                         [&r, &params, targets, tail, t](VkCommandBuffer cmd, const RenderGraph& g) {
                             r.recordRaycast(cmd, g, targets, t, tail, params);
                         });

    std::vector<ResourceUse> tailUses = commonUses(Use::StorageRead);
    tailUses.push_back({tail.dispatch, Use::IndirectArgs});
    graph.addComputePass(name + " tail", *r.tail_, tailUses,
                         [&r, &params, targets, tail, t](VkCommandBuffer cmd, const RenderGraph& g) {
                             r.recordTail(cmd, g, targets, t, tail, params);
                         });
    return tail.rays;
}

double raycastFrameMs(const std::vector<std::pair<std::string, double>>& timings, const std::string& name)
{
    double ms = 0.0;
    bool found = false;
    for (const auto& [pass, passMs] : timings)
        if (pass == name || pass == name + " tail reset" || pass == name + " tail") {
            ms += passMs;
            found = true;
        }
    if (!found)
        fail("no GPU timestamps for the pass '" + name + "': this device's queue has none, so nothing can be timed");
    return ms;
}

OrbitCamera cameraLookingAlong(const OrbitCamera& base, glm::vec3 forward)
{
    OrbitCamera camera = base;
    glm::vec3 backward = -glm::normalize(forward);
    camera.azimuthDeg = glm::degrees(std::atan2(backward.y, backward.x));
    camera.elevationDeg = glm::degrees(std::asin(std::clamp(backward.z, -1.0f, 1.0f)));
    return camera;
}

OrbitCamera cameraAlongAxis(const OrbitCamera& base, int axis)
{
    OrbitCamera camera = base;
    // The eye on the negative side of the axis, looking along it.
    camera.azimuthDeg = axis == 0 ? 180.0f : axis == 1 ? 270.0f : 0.0f;
    camera.elevationDeg = axis == 2 ? -90.0f : 0.0f; // cameraBackward clamps to ±89.9°
    return camera;
}

} // namespace isoscope
