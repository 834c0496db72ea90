#include "dvr/dvr_raycaster.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/context.h"
#include "core/error.h"
#include "core/transfer.h"
#include "raycast/ray_setup.h"
#include "volume/gpu_volume.h"

namespace isoscope {

// `DvrParameters` in shaders/dvr/dvr_common.glsl.
struct DvrPushConstants {
    glm::vec3 eye;
    float step;
    glm::vec3 forward;
    float nearPlane;
    glm::vec3 right;
    float farPlane;
    glm::vec3 down;
    uint32_t flags;
    glm::vec3 origin;
    uint32_t thresholds;
    glm::vec3 inverseSpacing;
    float valueScale;
    glm::ivec3 dims;
    uint32_t clearColor;
    glm::uvec2 extent;
    float tableLo;
    float tableScale;
};
static_assert(sizeof(DvrPushConstants) == 128);

namespace {

constexpr uint32_t kOrthographic = 1, kClear = 2, kSceneDepth = 4, kShade = 8, kSkip = 16, kTurnsShift = 8;

// `Parameters` in shaders/dvr/classify_visible_bricks.comp.
struct ClassifyVisiblePushConstants {
    uint32_t brickCounts[3];
    uint32_t tableEntries;
    float tableLo;
    float tableScale;
};

std::vector<PushMember> dvrPushMembers()
{
    return rayPushMembers<DvrPushConstants>(
        {ISOSCOPE_PUSH_MEMBER(DvrPushConstants, step), ISOSCOPE_PUSH_MEMBER(DvrPushConstants, thresholds),
         ISOSCOPE_PUSH_MEMBER(DvrPushConstants, tableLo), ISOSCOPE_PUSH_MEMBER(DvrPushConstants, tableScale)});
}

std::vector<PushMember> classifyPushMembers()
{
#define MEMBER(m) ISOSCOPE_PUSH_MEMBER(ClassifyVisiblePushConstants, m)
    return {MEMBER(brickCounts), MEMBER(tableEntries), MEMBER(tableLo), MEMBER(tableScale)};
#undef MEMBER
}

uint32_t packUnorm16(float v) { return uint32_t(std::lround(std::clamp(v, 0.0f, 1.0f) * 65535.0f)); }

// One quarter turn about y of an index-space vector (rotate_volume.h).
glm::vec3 turned(glm::vec3 v, int turns)
{
    for (int i = 0; i < turns; ++i)
        v = {-v.z, v.y, v.x};
    return v;
}

float tableScale(const TransferTable& table)
{
    return float(table.rgba.size() - 1) / (table.hi - table.lo);
}

} // namespace

DvrRaycaster::DvrRaycaster(Context& context, const FieldSource& field, const DvrOptions& options)
    : context_(context), options_(options), volume_(field.gpuVolume),
      ranges_(context, field, {options.brick, options.brick, options.brick}, RangeCoverage::Voxels),
      sceneDepth_(context)
{
    if (!field.gpuVolume || !field.gpuVolume->image().view)
        fail("direct volume rendering needs the volume as a 3D image on the GPU");
    const Volume& volume = *field.volume;
    for (int i = 0; i < 3; ++i) {
        dims_[i] = volume.dims[i];
        origin_[i] = float(volume.origin[i]);
        spacing_[i] = float(volume.spacing[i]);
    }
    Allocator& allocator = context.allocator();
    classes_ = allocator.createBuffer((ranges_.blockCount() + 3) / 4 * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                      MemoryUsage::DeviceLocal, "dvr brick classes");
    const VkBufferUsageFlags tableUsage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    tableBuffer_ = allocator.createBuffer(kTransferTableEntries * sizeof(glm::vec4), tableUsage,
                                          MemoryUsage::DeviceLocal, "dvr transfer table");
    visibleBuffer_ = allocator.createBuffer(kTransferTableEntries * sizeof(uint32_t), tableUsage,
                                            MemoryUsage::DeviceLocal, "dvr transfer visibility");

    const DeviceInfo& info = context.info();
    SpecValues common = {{"BRICK", options.brick}, {"TABLE_ENTRIES", kTransferTableEntries}};
    for (TileShape shape : kTileShapes) {
        auto index = size_t(shape);
        tiles_[index] = fitTile(tileShapeSize(shape), 1, info);
        SpecValues values = common;
        values.insert(values.end(), {{"TILE_X", tiles_[index][0]}, {"TILE_Y", tiles_[index][1]}});
        march_[index].emplace(context, loadShader("dvr/dvr_march"), values);
    }
    options_.warpTile = fitTile(options.warpTile, info.subgroupSize, info);
    SpecValues warp = common;
    warp.insert(warp.end(), {{"TILE_X", options_.warpTile[0]},
                             {"TILE_Y", options_.warpTile[1]},
                             {"WORKGROUP_SIZE", options_.warpTile[0] * options_.warpTile[1] * info.subgroupSize},
                             {"RUN", std::max(options.warpRun, 1u)}});
    warp_.emplace(context, loadShader("dvr/dvr_warp"), warp);
    classify_.emplace(context, loadShader("dvr/classify_visible_bricks"));
    for (const auto& program : march_)
        checkPushLayout(program->name(), program->pushMembers(), dvrPushMembers());
    checkPushLayout(warp_->name(), warp_->pushMembers(), dvrPushMembers());
    checkPushLayout(classify_->name(), classify_->pushMembers(), classifyPushMembers());
    if (VolumeRotation::possible(context, *volume_))
        rotation_.emplace(context, *volume_);

    // The ranges depend on the samples only: computed once.
    ranges_.computeNow();
}

void DvrRaycaster::setTransferFunction(const TransferFunction& tf)
{
    TransferTable table = bakeTransferFunction(tf, kTransferTableEntries);
    uploadToBuffer(context_, tableBuffer_, table.rgba.data(), table.rgba.size() * sizeof(glm::vec4));
    uploadToBuffer(context_, visibleBuffer_, table.nextVisible.data(), table.nextVisible.size() * sizeof(uint32_t));
    table_ = std::move(table);
    ++tableGeneration_;
}

void DvrRaycaster::addRegionPasses(RenderGraph& graph, const VolumeRegion& region)
{
    if (turns_ != 0)
        fail("a region of the volume changed while DVR holds its image turned: call restoreVolume() first");
    ranges_.addRegionPass(graph, region, "dvr brick value ranges of a region");
    classifiedGeneration_ = 0; // no table is generation 0: the next frame with one classifies again
}

void DvrRaycaster::restoreVolume()
{
    if (turns_ == 0)
        return;
    RenderGraph graph(context_);
    ResourceId volume = importVolumeImage(graph, *volume_, "volume");
    // One pass a turn: consecutive turns depend on each other (the graph places the barrier).
    for (int turn = turns_; turn > 0; --turn)
        graph.addComputePass("rotate volume back", rotation_->program(), {{volume, Use::StorageImageWrite, 0}},
                             [this](VkCommandBuffer cmd, const RenderGraph&) { rotation_->record(cmd, false); });
    graph.addPass("keep", PassKind::Compute, {{volume, Use::StorageImageRead}}, [](VkCommandBuffer, const RenderGraph&) {},
                  true);
    graph.compile();
    graph.execute();
    turns_ = 0;
}

uint64_t DvrRaycaster::auxiliaryBytes() const
{
    return ranges_.allocatedBytes() + classes_.allocated + tableBuffer_.allocated + visibleBuffer_.allocated +
           sceneDepth_.allocatedBytes();
}

glm::vec3 DvrRaycaster::indexDirection(const OrbitCamera& camera) const
{
    return glm::normalize(-cameraBackward(camera) / spacing_);
}

glm::vec3 DvrRaycaster::worldDirection(glm::vec3 indexDirection) const
{
    return glm::normalize(indexDirection * spacing_);
}

DvrRaycaster::Plan DvrRaycaster::plan(const DvrParams& params, VkExtent2D extent) const
{
    Plan p;
    p.mapping = params.mapping == DvrMapping::Auto ? costModel_.choose(indexDirection(params.camera)) : params.mapping;
    if (p.mapping == DvrMapping::Rotated)
        p.turns = favourableTurns(indexDirection(params.camera));
    if (p.mapping == DvrMapping::Shaped || p.mapping == DvrMapping::Rotated) {
        RayCamera camera = rayCamera(params.camera, extent);
        p.shape = chooseTileShape(turned(camera.right / spacing_, p.turns), turned(camera.down / spacing_, p.turns),
                                  turned(camera.forward / spacing_, p.turns));
    }
    return p;
}

void DvrRaycaster::recordClassify(VkCommandBuffer cmd) const
{
    std::array<uint32_t, 3> counts = ranges_.blockCounts();
    ClassifyVisiblePushConstants constants{{counts[0], counts[1], counts[2]},
                                           uint32_t(table_.rgba.size()),
                                           table_.lo,
                                           tableScale(table_)};
    classify_->bind(cmd, {{ranges_.buffer().buffer}, {visibleBuffer_.buffer}, {classes_.buffer}}, &constants,
                    sizeof constants);
    classify_->dispatchLine(cmd, ceilDiv((ranges_.blockCount() + 3) / 4, classify_->localSize()[0]));
}

DvrPushConstants DvrRaycaster::pushConstants(const RenderGraph& graph, const RaycastTargets& targets,
                                             const DvrParams& params, int turns) const
{
    VkExtent2D extent = graph.image(targets.color).extent;
    RayCamera camera = rayCamera(params.camera, extent);
    DvrPushConstants constants{};
    constants.eye = camera.eye;
    constants.step = params.stepVoxels;
    constants.forward = camera.forward;
    constants.nearPlane = camera.nearPlane;
    constants.right = camera.right;
    constants.farPlane = camera.farPlane;
    constants.down = camera.down;
    constants.flags = (camera.orthographic ? kOrthographic : 0) | (params.clear ? kClear : 0) |
                      (targets.sceneDepth != kNoResource ? kSceneDepth : 0) | (params.shading ? kShade : 0) |
                      (params.skipTransparent ? kSkip : 0) | uint32_t(turns) << kTurnsShift;
    constants.origin = origin_;
    constants.thresholds = packUnorm16(params.terminationOpacity) | packUnorm16(params.depthOpacity) << 16;
    constants.inverseSpacing = 1.0f / spacing_;
    constants.valueScale = volume_->valueScale();
    constants.dims = glm::ivec3(dims_[0], dims_[1], dims_[2]);
    constants.clearColor = packColor(params.clearColor);
    constants.extent = {extent.width, extent.height};
    constants.tableLo = table_.lo;
    constants.tableScale = tableScale(table_);
    return constants;
}

void DvrRaycaster::recordMarch(VkCommandBuffer cmd, const RenderGraph& graph, const RaycastTargets& targets,
                               ResourceId volume, ResourceId sceneDepth, ResourceId clip, const DvrParams& params)
{
    VkExtent2D extent = graph.image(targets.color).extent;
    last_ = plan(params, extent);
    last_.turns = turns_; // what the image holds now (the rotate pass has run)
    DvrPushConstants constants = pushConstants(graph, targets, params, turns_);
    std::array<DescriptorInfo, 7> b = {
        DescriptorInfo(volume_->linearSampler(), graph.image(volume).view, VK_IMAGE_LAYOUT_GENERAL),
        DescriptorInfo(classes_.buffer),
        DescriptorInfo(VK_NULL_HANDLE, graph.image(targets.color).view, VK_IMAGE_LAYOUT_GENERAL),
        DescriptorInfo(VK_NULL_HANDLE, graph.image(targets.depth).view, VK_IMAGE_LAYOUT_GENERAL),
        DescriptorInfo(sceneDepth_.sampler(), graph.image(sceneDepth).view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL),
        DescriptorInfo(tableBuffer_.buffer),
        DescriptorInfo(graph.buffer(clip))};
    if (last_.mapping == DvrMapping::Warp) {
        warp_->bind(cmd, b, &constants, sizeof constants);
        warp_->dispatch(cmd, groupCount(extent.width, options_.warpTile[0]),
                        groupCount(extent.height, options_.warpTile[1]));
        return;
    }
    auto shape = size_t(last_.shape);
    march_[shape]->bind(cmd, b, &constants, sizeof constants);
    march_[shape]->dispatch(cmd, groupCount(extent.width, tiles_[shape][0]), groupCount(extent.height, tiles_[shape][1]));
}

void addDvrPass(RenderGraph& graph, DvrRaycaster& dvr, const RaycastTargets& targets, const DvrParams& params,
                const std::string& name)
{
    if (dvr.tableGeneration_ == 0)
        fail("direct volume rendering needs a transfer function: call setTransferFunction first");
    if (!(params.stepVoxels > 0.0f))
        fail("the DVR step must be a positive number of voxels, not " + std::to_string(params.stepVoxels));
    for (auto [what, v] : {std::pair{"termination opacity", params.terminationOpacity},
                           std::pair{"depth opacity", params.depthOpacity}})
        if (!(v >= 0.0f && v <= 1.0f))
            fail(std::string("the DVR ") + what + " must lie in 0..1, not " + std::to_string(v));
    if (params.mapping == DvrMapping::Auto && !dvr.costModel().calibrated)
        fail("the auto DVR mapping needs a calibrated cost table: call calibrateDvrCostModel first");
    if (params.mapping == DvrMapping::Rotated && !dvr.canRotate())
        fail("the rotated DVR mapping cannot run: " +
             std::string(VolumeRotation::possible(dvr.context_, *dvr.volume_)
                             ? "engine bug"
                             : "upload the volume with GpuVolumeUsage::squareXZMultiple = " +
                                   std::to_string(kRotationPadding) +
                                   " on a device that stores R8/R16/R32_UINT images"));
    DvrRaycaster& r = dvr;
    ResourceId classes = graph.importBuffer("dvr brick classes", r.classes_.buffer);
    ResourceId ranges = graph.importBuffer("dvr brick value ranges", r.ranges_.buffer().buffer);
    ResourceId visible = graph.importBuffer("dvr transfer visibility", r.visibleBuffer_.buffer);
    ResourceId table = graph.importBuffer("dvr transfer table", r.tableBuffer_.buffer);
    graph.addComputePass("classify visible bricks", *r.classify_,
                         {{ranges, Use::StorageRead, 0}, {visible, Use::StorageRead, 1}, {classes, Use::StorageWrite, 2}},
                         [&r](VkCommandBuffer cmd, const RenderGraph&) {
                             r.recordClassify(cmd);
                             r.classifiedGeneration_ = r.tableGeneration_;
                         });
    graph.setCondition([&r] { return r.classifiedGeneration_ != r.tableGeneration_; });

    ResourceId volume = importVolumeImage(graph, *r.volume_, name + " volume");
    VkExtent2D extent = graph.desc().resources.at(targets.color).extent;
    if (r.rotation_) {
        graph.addComputePass("rotate volume", r.rotation_->program(), {{volume, Use::StorageImageWrite, 0}},
                             [&r, &params, extent](VkCommandBuffer cmd, const RenderGraph&) {
                                 // Plans hold 0 or 1 turns: one dispatch, forward or back.
                                 int wanted = r.plan(params, extent).turns;
                                 r.rotation_->record(cmd, wanted > r.turns_);
                                 r.turns_ = wanted;
                             });
        graph.setCondition([&r, &params, extent] { return r.plan(params, extent).turns != r.turns_; });
    }

    ResourceId sceneDepth = r.sceneDepth_.resolve(graph, targets.sceneDepth, name + " far depth");
    ResourceId clip = addRayClipPass(graph, params.clip, r.dims_, name);
    std::vector<const ComputeProgram*> programs = {&*r.warp_};
    for (const auto& program : r.march_)
        programs.push_back(&*program);
    graph.addComputePass(name, programs,
                         {{volume, Use::Sampled, 0},
                          {classes, Use::StorageRead, 1},
                          {targets.color, Use::StorageImageWrite, 2},
                          {targets.depth, Use::StorageImageWrite, 3},
                          {sceneDepth, Use::Sampled, 4},
                          {table, Use::StorageRead, 5},
                          {clip, Use::StorageRead, 6}},
                         [&r, &params, targets, volume, sceneDepth, clip](VkCommandBuffer cmd, const RenderGraph& g) {
                             r.recordMarch(cmd, g, targets, volume, sceneDepth, clip, params);
                         });
}

} // namespace isoscope
