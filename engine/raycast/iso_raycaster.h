#pragma once
// Isosurface raycasting as render-graph passes, in two mappings of rays to
// the GPU and an adaptive choice between them (raycast_params.h):
//   "classify bricks"  which side of the isovalue each 8³ brick (and each
//                      macro cell of bricks) can be on, from the block
//                      method's value ranges (empty-space skipping)
//   "raycast clip"     writes the clip box the rays sample (a transfer, ray_setup.h)
//   "raycast tail reset"  empties the list of handed-on rays (a transfer)
//   "raycast"          shaders/raycast/iso_standard.comp or iso_warp.comp
//   "raycast tail"     iso_warp.comp finishing, a subgroup each, the rays
//                      the Standard mapping handed on (RaycastOptions::tailBudget)
// A frame's time is the three passes' (raycastFrameMs).
// The raycast writes colour (RGBA8, a storage image) and depth (R32_SFLOAT,
// the same 0..1 depth a raster pass with the same camera writes), and can
// stop its rays at the depth of what raster passes drew before it, so meshes
// and raycast surfaces composite in one frame (raycast after the raster).
//
//   IsoRaycaster raycaster(context, {&volume, &gpuVolume});
//   ResourceId color = graph.createImage("color", extent, VK_FORMAT_R8G8B8A8_UNORM);
//   ResourceId depth = graph.createImage("ray depth", extent, kRayDepthFormat);
//   addIsoRaycastPass(graph, raycaster, {color, depth}, params); // params read at record time
//
// The volume's 3D image is read as it is (uploaded before the graph runs);
// the graph tracks the brick buffers and the targets.
#include <array>
#include <optional>
#include <string>

#include "core/memory.h"
#include "core/shader.h"
#include "extract/block/min_max.h"
#include "graph/render_graph.h"
#include "raycast/raycast_cost_model.h"
#include "raycast/raycast_params.h"
#include "raycast/scene_depth.h"

namespace isoscope {

struct RaycastPushConstants;

constexpr VkFormat kRayColorFormat = VK_FORMAT_R8G8B8A8_UNORM;
constexpr VkFormat kRayDepthFormat = VK_FORMAT_R32_SFLOAT;

struct RaycastOptions {
    uint32_t brick = 8;                      // empty-space brick edge, voxels
    bool skipEmpty = true;                   // false: march every sample (for tests and benchmarks)
    std::array<uint32_t, 2> tile{8, 8};      // Standard: pixels per workgroup
    std::array<uint32_t, 2> warpTile{2, 2};  // Warp: rays (subgroups) per workgroup
    // Standard: dense strides (one brick lookup's worth of samples each) a
    // ray marches before warp marching takes over the rest of it; 0: never.
    // The frame's slowest subgroup sets its time, and it is the one whose
    // rays graze the surface longest (docs/BENCHMARKS.md).
    uint32_t tailBudget = 4;
    // Standard: brick lookups (skipping steps) a ray takes before warp
    // marching takes over the rest of it, when tailBudget is not 0; 0: no
    // limit. A ray that skips along the surface without touching it steps
    // through many bricks one lookup at a time, and those rays set the
    // frame at some views; 48 evened out the sweeps most (docs/BENCHMARKS.md).
    uint32_t tailLookups = 48;
    // Warp-marching cycles the tail pass loads at once (one round trip); 2
    // was the fastest measured (docs/BENCHMARKS.md).
    uint32_t tailCyclesPerLoad = 2;
    // Standard: a second, coarser level of skipping over cells of this many
    // bricks a side, looked up with the bricks, so that a ray crosses wide
    // empty space in fewer dependent lookups; 0: bricks only.
    uint32_t macroBricks = 4;
};

struct RaycastTargets {
    ResourceId color = kNoResource;      // kRayColorFormat, written
    ResourceId depth = kNoResource;      // kRayDepthFormat, written
    ResourceId sceneDepth = kNoResource; // optional: a depth attachment earlier passes drew into, sampled
};

class IsoRaycaster {
public:
    // Computes the brick value ranges once (a set-up submission).
    IsoRaycaster(Context& context, const FieldSource& field, const RaycastOptions& options = {});
    IsoRaycaster(const IsoRaycaster&) = delete;
    IsoRaycaster& operator=(const IsoRaycaster&) = delete;

    RaycastCostModel& costModel() { return costModel_; }
    const RaycastCostModel& costModel() const { return costModel_; }
    // The camera's view direction in the volume's index space, unit length.
    glm::vec3 indexDirection(const OrbitCamera& camera) const;
    // An index-space direction in world space, unit length.
    glm::vec3 worldDirection(glm::vec3 indexDirection) const;
    // The mapping a frame with these parameters runs (Auto resolved by the cost model).
    RaycastMode resolveMode(const RaycastParams& params) const;
    // The mapping the last recorded frame ran.
    RaycastMode lastMode() const { return lastMode_; }
    const RaycastOptions& options() const { return options_; }
    // The next frame reclassifies the bricks even at the same isovalue (benchmarks time that pass).
    void invalidateBrickClasses() { classifiedIso_.reset(); }
    // The samples of `region` changed (uploaded by work submitted before
    // `graph` runs): adds the passes that write the ranges of the bricks and
    // macro cells holding them, and the next frame classifies again.
    void addRegionPasses(RenderGraph& graph, const VolumeRegion& region);
    // Everything allocated beyond the volume: ranges, brick classes, placeholders.
    uint64_t auxiliaryBytes() const;

private:
    friend ResourceId addIsoRaycastPass(RenderGraph&, IsoRaycaster&, const RaycastTargets&, const RaycastParams&,
                                        const std::string&);
    struct TailBuffers {
        ResourceId rays = kNoResource;     // TailRays (raycast_common.glsl)
        ResourceId dispatch = kNoResource; // VkDispatchIndirectCommand of the tail pass
    };
    // The imports of the images every raycast pass binds.
    struct TargetResources {
        ResourceId volume = kNoResource;
        ResourceId sceneDepth = kNoResource; // the host's, or the far-depth placeholder
        ResourceId clip = kNoResource;       // the clip box (addRayClipPass)
    };
    void recordRaycast(VkCommandBuffer cmd, const RenderGraph& graph, const RaycastTargets& targets,
                       const TargetResources& t, const TailBuffers& tail, const RaycastParams& params);
    void recordTail(VkCommandBuffer cmd, const RenderGraph& graph, const RaycastTargets& targets,
                    const TargetResources& t, const TailBuffers& tail, const RaycastParams& params);
    RaycastPushConstants pushConstants(const RenderGraph& graph, const RaycastTargets& targets,
                                       const RaycastParams& params) const;
    // The descriptors every raycast shader takes first: volume, brick classes, colour, depth, scene depth.
    using Bindings = std::array<DescriptorInfo, 5>;
    Bindings bindings(const RenderGraph& graph, const RaycastTargets& targets, const TargetResources& t) const;
    bool handsOnTails() const { return options_.tailBudget != 0 && lastMode_ == RaycastMode::Standard; }

    Context& context_;
    RaycastOptions options_;
    const GpuVolume* volume_ = nullptr;
    std::array<uint32_t, 3> dims_{};
    glm::vec3 origin_{0.0f}, spacing_{1.0f};
    // One level of empty-space skipping: value ranges of cells `edge` voxels
    // a side, and their classes at the current isovalue (classify_bricks.comp).
    struct SkipLevel {
        SkipLevel(Context& context, const FieldSource& field, uint32_t edge, const char* what);
        BlockValueRanges ranges;
        Buffer classes;
    };
    void recordClassify(VkCommandBuffer cmd, const SkipLevel& level, float iso) const;
    SkipLevel bricks_;
    std::optional<SkipLevel> macro_; // with options_.macroBricks and skipping on
    std::optional<ComputeProgram> classify_, standard_, warp_, tail_;
    SceneDepthInput sceneDepth_;
    std::optional<float> classifiedIso_; // the isovalue the classes hold
    RaycastCostModel costModel_;
    RaycastMode lastMode_ = RaycastMode::Standard;
};

// Adds "classify bricks", `name` + " clip", `name` + " tail reset", `name` and `name` + " tail"
// to the graph. `raycaster` and `params` must outlive the graph's
// recordings. Throws Error for Auto without a calibrated cost model.
// Returns the list of rays the Standard mapping handed to warp marching
// (a transient buffer: its first word counts them, for statistics and tests).
ResourceId addIsoRaycastPass(RenderGraph& graph, IsoRaycaster& raycaster, const RaycastTargets& targets,
                             const RaycastParams& params, const std::string& name = "raycast");

// A raycast frame's GPU milliseconds from a graph's pass timings: the
// passes addIsoRaycastPass added under `name` (its tail's included), not
// "classify bricks", which runs only when the isovalue changes.
double raycastFrameMs(const std::vector<std::pair<std::string, double>>& timings, const std::string& name = "raycast");

// Measures both mappings looking along the cost model's 7 directions (GPU
// timestamps, median of `repeat` frames after `warmup`) at `extent` with
// `base`'s camera framing, and stores the result in raycaster.costModel().
// About a hundred frames.
void calibrateRaycastCostModel(Context& context, IsoRaycaster& raycaster, VkExtent2D extent,
                               const RaycastParams& base, int warmup = 2, int repeat = 5);

// The camera of `base` turned to look along the world direction `forward`
// (the orbit camera's elevation clamps to ±89.9°).
OrbitCamera cameraLookingAlong(const OrbitCamera& base, glm::vec3 forward);
// The camera of `base` turned to look along +x (axis 0), +y (1) or +z (2).
OrbitCamera cameraAlongAxis(const OrbitCamera& base, int axis);

} // namespace isoscope
