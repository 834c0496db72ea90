#pragma once
// Direct volume rendering as render-graph passes:
//   "classify visible bricks"  which 8³ bricks the transfer function gives
//                              some opacity (classify_visible_bricks.comp),
//                              when the transfer function has changed
//   "rotate volume"            a quarter turn about y in place, when the
//                              Rotated mapping's view crosses between facing
//                              x and not (rotate_volume.h)
//   "dvr clip"                 writes the clip box the rays sample (ray_setup.h)
//   "dvr"                      dvr_march.comp (Standard, Shaped, Rotated) or
//                              dvr_warp.comp (Warp)
// It writes colour (RGBA8, composited over the clear colour or what the
// target holds) and depth where a ray's opacity first passes
// DvrParams::depthOpacity, and stops its rays at a scene depth, so DVR
// composites with raster meshes by depth in one frame (raycast after raster).
//
//   DvrRaycaster dvr(context, {&volume, &gpuVolume});
//   dvr.setTransferFunction(tf);                         // a set-up upload
//   addDvrPass(graph, dvr, {color, depth}, params);      // params read at record time
//
// The Rotated mapping needs the volume uploaded with
// GpuVolumeUsage::squareXZMultiple = kRotationTile and turns the image
// itself: while volumeQuarterTurns() is 1 the image holds the turned
// volume; restoreVolume() turns it back for other users of the image.
#include <array>
#include <optional>
#include <string>

#include "core/memory.h"
#include "core/shader.h"
#include "dvr/dvr_cost_model.h"
#include "dvr/dvr_params.h"
#include "dvr/dvr_view.h"
#include "dvr/rotate_volume.h"
#include "dvr/transfer_function.h"
#include "extract/block/min_max.h"
#include "graph/render_graph.h"
#include "raycast/iso_raycaster.h"
#include "raycast/scene_depth.h"

namespace isoscope {

struct DvrPushConstants;

struct DvrOptions {
    uint32_t brick = 8;                     // transfer-function skipping brick edge, voxels
    std::array<uint32_t, 2> warpTile{2, 2}; // Warp: rays (subgroups) per workgroup
    uint32_t warpRun = 2;                   // Warp: samples each lane composites per cycle
};

class DvrRaycaster {
public:
    // Computes the brick value ranges once (a set-up submission). Throws
    // Error when the volume is not on the GPU as an image.
    DvrRaycaster(Context& context, const FieldSource& field, const DvrOptions& options = {});
    DvrRaycaster(const DvrRaycaster&) = delete;
    DvrRaycaster& operator=(const DvrRaycaster&) = delete;

    // Bakes and uploads the table (a set-up submission); the next frame
    // reclassifies the bricks. Throws Error for an invalid transfer function.
    void setTransferFunction(const TransferFunction& tf);
    const TransferTable& table() const { return table_; }
    // The samples of `region` changed (uploaded by work submitted before
    // `graph` runs): adds the pass that writes the ranges of the bricks
    // holding them, and the next frame classifies again. Throws Error while
    // the image is turned (restoreVolume first).
    void addRegionPasses(RenderGraph& graph, const VolumeRegion& region);

    // Whether the Rotated mapping can run: a padded volume and a device that
    // loads and stores images without a format.
    bool canRotate() const { return rotation_.has_value(); }
    int volumeQuarterTurns() const { return turns_; }
    // Turns the image back to how it was uploaded (a submission of its own, when turned).
    void restoreVolume();

    // The camera's view direction in the volume's index space, unit length.
    glm::vec3 indexDirection(const OrbitCamera& camera) const;
    // An index-space direction in world space, unit length.
    glm::vec3 worldDirection(glm::vec3 indexDirection) const;
    DvrCostModel& costModel() { return costModel_; }
    const DvrCostModel& costModel() const { return costModel_; }
    // The mapping, shape and turns a frame with these parameters runs.
    struct Plan {
        DvrMapping mapping = DvrMapping::Standard;
        TileShape shape = TileShape::Square;
        int turns = 0;
    };
    Plan plan(const DvrParams& params, VkExtent2D extent) const;
    Plan lastPlan() const { return last_; }
    // Everything allocated beyond the volume.
    uint64_t auxiliaryBytes() const;
    const DvrOptions& options() const { return options_; }

private:
    friend void addDvrPass(RenderGraph&, DvrRaycaster&, const RaycastTargets&, const DvrParams&, const std::string&);
    DvrPushConstants pushConstants(const RenderGraph& graph, const RaycastTargets& targets, const DvrParams& params,
                                   int turns) const;
    void recordClassify(VkCommandBuffer cmd) const;
    void recordMarch(VkCommandBuffer cmd, const RenderGraph& graph, const RaycastTargets& targets,
                     ResourceId volume, ResourceId sceneDepth, ResourceId clip, const DvrParams& params);

    Context& context_;
    DvrOptions options_;
    const GpuVolume* volume_ = nullptr;
    std::array<uint32_t, 3> dims_{};
    glm::vec3 origin_{0.0f}, spacing_{1.0f};
    BlockValueRanges ranges_;
    Buffer classes_, tableBuffer_, visibleBuffer_;
    TransferTable table_;
    uint64_t tableGeneration_ = 0, classifiedGeneration_ = 0;
    std::optional<ComputeProgram> classify_, warp_;
    std::array<std::optional<ComputeProgram>, 3> march_; // per TileShape
    std::array<std::array<uint32_t, 2>, 3> tiles_{};
    std::optional<VolumeRotation> rotation_;
    SceneDepthInput sceneDepth_;
    int turns_ = 0;
    Plan last_;
    DvrCostModel costModel_;
};

// Adds "classify visible bricks", "rotate volume", `name` + " clip" and `name` to the graph.
// `dvr` and `params` must outlive the graph's recordings. Throws Error before
// a transfer function is set, for a Rotated mapping the raycaster cannot
// run, or for Auto before calibrateDvrCostModel.
void addDvrPass(RenderGraph& graph, DvrRaycaster& dvr, const RaycastTargets& targets, const DvrParams& params,
                const std::string& name = "dvr");

} // namespace isoscope
