#pragma once
// What the HistoPyramid method's passes share (shaders/extract/histopyramid/
// histopyramid_common.glsl): the graph resources of its bindings, and the
// push constants every pass reads.
#include <cstdint>
#include <string>
#include <vector>

#include "core/shader.h"
#include "graph/compute_pass.h"
#include "graph/graph_desc.h"

namespace isoscope {

// `Grid` in histopyramid_common.glsl, member for member.
struct HistoPyramidPush {
    uint32_t nx, ny, nz, topLevel, scalarType;
    float iso;
    float originX, originY, originZ;
    float spacingX, spacingY, spacingZ;
    uint32_t level; // reduce: the level it writes; base: the level-2 layers a workgroup walks
};
const std::vector<PushMember>& histoPyramidPushMembers();

struct HistoPyramidResources {
    ResourceId volume = kNoResource;    // the samples (storage buffer)
    ResourceId levels = kNoResource;    // per level: dims and first word (constant)
    ResourceId pyramid = kNoResource;   // every level's counts (transient)
    ResourceId caseTable = kNoResource;
    ResourceId vertices = kNoResource, indices = kNoResource, counters = kNoResource;
    ResourceId dispatch = kNoResource;  // prepare's indirect dispatches and totals (transient)
};

// A pass of the method: its program made with the method's push constants
// checked, bound with the isovalue it records at.
class HistoPyramidPass : public ComputePass {
protected:
    HistoPyramidPass(Context& context, std::string_view shader, const SpecValues& values)
        : ComputePass(context, shader, values, histoPyramidPushMembers())
    {
    }
    void bind(VkCommandBuffer cmd, const RenderGraph& graph, const std::vector<ResourceUse>& uses,
              HistoPyramidPush push, float iso) const
    {
        push.iso = iso;
        bindUses(cmd, graph, uses, &push, sizeof push);
    }
    // A reduce pass (reduce.comp, reduce_words.comp) over `uses`: one
    // invocation per entry of `level`, which the push constants name.
    void addReduce(RenderGraph& graph, const std::string& name, const std::vector<ResourceUse>& uses,
                   const HistoPyramidPush& push, uint32_t level, uint64_t invocations) const;
};

// The indirect dispatches prepare.comp writes, and where the triangles' starts.
constexpr uint64_t kHistoPyramidDispatchBytes = 40;
constexpr uint64_t kHistoPyramidTriangleDispatchOffset = 16;

} // namespace isoscope
