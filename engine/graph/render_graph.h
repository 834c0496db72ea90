#pragma once
// The render graph at run time: resources (imported or transient), passes
// with the uses they declare and a function that records their commands.
// compile() runs compileGraph (compile_graph.h) and creates the transient
// resources, aliasing their memory where the plan says so; record() writes
// the barriers and the passes into a command buffer, each pass timed.
//
// Reuse: compile once, record every frame. Per-frame parameters (isovalue,
// camera) are read by the pass functions when they record, so changing them
// needs no recompile; neither does pointing an imported resource at another
// handle of the same kind (the next swapchain image). Recompile only when
// passes or resources are added.
//
//   RenderGraph graph(context);
//   ResourceId color = graph.importImage("color", target, {}, readbackState);
//   ResourceId depth = graph.createImage("depth", extent, VK_FORMAT_D32_SFLOAT);
//   graph.addPass("draw mesh", PassKind::Raster, {{color, Use::ColorAttachment}, {depth, Use::DepthAttachment}},
//                 [&](VkCommandBuffer cmd, const RenderGraph& g) { ... g.image(depth).view ... });
//   graph.compile();
//   graph.execute();               // or graph.record(hostCommandBuffer)
//   graph.passTimings();           // {"draw mesh", 0.42} ...
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <volk.h>

#include "core/queue_role.h"
#include "core/shader.h"
#include "graph/compile_graph.h"

namespace isoscope {

class Context;
class GpuTimer;
struct Image;

struct GraphImage {
    VkImage image = VK_NULL_HANDLE;
    VkImageView view = VK_NULL_HANDLE;
    VkFormat format = VK_FORMAT_UNDEFINED;
    VkExtent2D extent{0, 0};
};

// A 2D engine image as a graph import.
GraphImage graphImage(const Image& image);

class RenderGraph {
public:
    using Record = std::function<void(VkCommandBuffer, const RenderGraph&)>;

    // The graph is one submission to the queue of `role`: its passes are
    // placed there (a dedicated transfer queue runs transfer passes only),
    // and ownership transfers are measured against that queue's family.
    explicit RenderGraph(Context& context, QueueRole role = QueueRole::Main);
    ~RenderGraph();
    RenderGraph(const RenderGraph&) = delete;
    RenderGraph& operator=(const RenderGraph&) = delete;

    // Host resources. `initial` is their state when the graph starts (what the
    // host last did to them; the default: nothing pending, contents
    // undefined for images); `final`, when given, is the state the graph
    // leaves them in for the host's next use.
    ResourceId importBuffer(std::string name, VkBuffer buffer, ResourceState initial = {},
                            std::optional<ResourceState> final = {});
    ResourceId importImage(std::string name, const GraphImage& image, ResourceState initial = {},
                           std::optional<ResourceState> final = {});
    // Point an import at another handle; no recompile needed.
    void setImportedBuffer(ResourceId id, VkBuffer buffer);
    void setImportedImage(ResourceId id, const GraphImage& image);

    // The imports of `image` (a method may import one image more than once)
    // arrive in `arriving` (a state naming the family that released it,
    // graph_desc.h): the import used first is acquired there; the others
    // read after that acquire. Applied at compile().
    void acquireImportedImage(VkImage image, ResourceState arriving);
    // The same for a buffer (a streamed slab's raw samples).
    void acquireImportedBuffer(VkBuffer buffer, ResourceState arriving);

    QueueRole queueRole() const { return role_; }
    uint32_t queueFamily() const { return desc_.queueFamily; }

    // Frames in flight: from now on, an import without a stated initial state
    // is taken as written by earlier submissions to the queue (a frame the
    // GPU may still run), so its first use waits for them. Without this, the
    // host's submissions are assumed to have finished.
    void setImportsFollowEarlierWork() { importsFollowEarlierWork_ = true; }

    // Resources the graph creates at compile(), alive until it is destroyed
    // or recompiled, their memory shared with others whose lifetimes do not overlap.
    ResourceId createBuffer(std::string name, VkDeviceSize size);
    ResourceId createImage(std::string name, VkExtent2D extent, VkFormat format);

    void addPass(std::string name, PassKind kind, std::vector<ResourceUse> uses, Record record,
                 bool sideEffects = false);
    // A compute pass that dispatches `program`: each use that binds a
    // descriptor names its binding, and compile() checks the uses against the
    // program's reflected bindings (checkPassBindings). The program must
    // outlive the graph's recordings.
    void addComputePass(std::string name, const ComputeProgram& program, std::vector<ResourceUse> uses,
                        Record record);
    // The same for a pass that picks one of several programs when it records
    // (variants of one shader interface): the uses are checked against each.
    void addComputePass(std::string name, std::vector<const ComputeProgram*> programs, std::vector<ResourceUse> uses,
                        Record record);

    // The last pass added records only while `condition` holds when the graph
    // records (its barriers stay, so skipping it is always safe): work whose
    // result survives frames, e.g. value ranges recomputed only after the
    // volume changed. A skipped pass has no timing.
    void setCondition(std::function<bool()> condition);

    void compile();
    const CompiledGraph& compiled() const { return compiled_; }
    const GraphDesc& desc() const { return desc_; }

    // Records every kept pass with its barriers into `cmd` (which the caller
    // begins, ends and submits), then the final barriers.
    void record(VkCommandBuffer cmd);
    // Records into a command buffer of the graph's own, submits it and waits.
    void execute();
    // GPU milliseconds per pass of the last recording, by pass name, in
    // execution order (consecutive passes of one name as one entry); waits
    // for the results (call after the submission). Empty where the device's
    // queue has no timestamps.
    std::vector<std::pair<std::string, double>> passTimings();
    // GPU milliseconds from the first pass's start to the last pass's end of
    // the last recording (barriers included); 0 without timestamps.
    double frameMs();
    // The last recording's first and last timestamps in milliseconds of the
    // device's timestamp clock (comparable across the device's queues:
    // streamed extraction's overlap of upload and extraction); {0, 0}
    // without timestamps.
    std::pair<double, double> frameSpan();
    // Device bytes the transient resources of this compile hold (after aliasing).
    uint64_t transientBytes() const;

    // Handles, for pass functions.
    VkBuffer buffer(ResourceId id) const;
    // A whole buffer as a descriptor.
    DescriptorInfo storage(ResourceId id) const { return DescriptorInfo(buffer(id)); }
    const GraphImage& image(ResourceId id) const;
    Context& context() const { return context_; }

private:
    struct Transients;
    void recordBarriers(VkCommandBuffer cmd, const std::vector<Barrier>& barriers) const;
    ResourceId addResource(ResourceDesc desc);
    ResourceState followEarlierWork(ResourceState initial) const;

    Context& context_;
    QueueRole role_;
    GraphDesc desc_;
    struct Acquired {
        VkImage image = VK_NULL_HANDLE;   // one of the two
        VkBuffer buffer = VK_NULL_HANDLE;
        ResourceState arriving;
    };
    std::vector<Acquired> acquired_;
    std::vector<Record> records_;
    std::vector<std::function<bool()>> conditions_; // per pass; empty: always
    std::vector<VkBuffer> buffers_;  // per resource; null for images
    std::vector<GraphImage> images_; // per resource; empty for buffers
    CompiledGraph compiled_;
    bool isCompiled_ = false;
    bool importsFollowEarlierWork_ = false;
    std::unique_ptr<Transients> transients_;
    std::unique_ptr<GpuTimer> timer_;
    uint32_t timerScopes_ = 0;
    bool timingsRead_ = true;
    std::vector<std::pair<std::string, double>> timings_;
    double frameMs_ = 0.0;
    void readTimings();
};

} // namespace isoscope
