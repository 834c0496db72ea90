#pragma once
// The descriptor layout every pass of the block method shares
// (shaders/extract/block/block_common.glsl): which graph resource each of its
// twelve bindings holds, how a pass declares them, and how it binds them.
// A pass says which bindings it writes; it reads the rest, and the graph
// checks that against what its shader leaves writable.
#include <initializer_list>
#include <optional>
#include <vector>

#include "core/shader.h"
#include "graph/compute_pass.h"
#include "extract/block/block_parameters.h"
#include "graph/graph_desc.h"

namespace isoscope {

class RenderGraph;

enum BlockBinding : int32_t {
    kBlockVolume = 0,    // the 3D image, sampled
    kBlockRanges,        // per-block value ranges (min_max)
    kBlockActiveBlocks,  // the list of blocks the surface may cross
    kBlockListedWords,   // welded: where each block is listed
    kBlockState,         // list length and indirect dispatches
    kBlockSlotVertices,  // welded: first vertex and edge-group sizes per listed block
    kBlockCaseTable,
    kBlockMeshVertices,
    kBlockMeshIndices,
    kBlockMeshCounters,
    kBlockVolumeWords,   // the volume's bytes (min_max_words)
    kBlockVertexEdgeCodes, // streamed slabs: which end-plane edge each vertex lies on (generate_triangles)
    kBlockBindingCount
};

struct BlockLayout {
    ResourceId resources[kBlockBindingCount];
    VkSampler sampler = VK_NULL_HANDLE; // for the volume image
};

// The uses of a pass: StorageWrite for the bindings in `writes`, reads for
// the rest (the volume sampled), each with its binding.
std::vector<ResourceUse> blockUses(const BlockLayout& layout, std::initializer_list<BlockBinding> writes);

// Binds `program` with the layout's resources and the push constants;
// `volumeWords`, where given, replaces binding 10 (a z-slab of the volume).
void bindBlockLayout(VkCommandBuffer cmd, const RenderGraph& graph, const ComputeProgram& program,
                     const BlockLayout& layout, const BlockParameters& parameters,
                     std::optional<DescriptorInfo> volumeWords = {});

// The push-constant block's members as C++ lays them out (checkPushLayout).
const std::vector<PushMember>& blockParameterMembers();

// A pass of the method: its program made with the push constants checked,
// bound to the layout with the isovalue it records at.
class BlockPass : public ComputePass {
public:
    const ComputeProgram& program() const { return program_; }
    // Binds and dispatches indirectly from the block state at `argsOffset`.
    void recordIndirect(VkCommandBuffer cmd, const RenderGraph& graph, const BlockLayout& layout,
                        const BlockParameters& parameters, float iso, VkDeviceSize argsOffset) const;

protected:
    BlockPass(Context& context, std::string_view shader, const SpecValues& values)
        : ComputePass(context, shader, values, blockParameterMembers())
    {
    }
    void bind(VkCommandBuffer cmd, const RenderGraph& graph, const BlockLayout& layout, BlockParameters parameters,
              float iso) const
    {
        parameters.iso = iso;
        bindBlockLayout(cmd, graph, program_, layout, parameters);
    }
    // Adds the pass dispatched indirectly from the block state at
    // `argsOffset`, the arguments compact_blocks wrote for it.
    void addIndirect(RenderGraph& graph, const char* name, const BlockLayout& layout,
                     std::initializer_list<BlockBinding> writes, const BlockParameters& parameters, const float& iso,
                     VkDeviceSize argsOffset) const;
};

} // namespace isoscope
