#pragma once
// What the Dual Marching Cubes passes share (shaders/extract/dual/
// dual_common.glsl): the push constants every pass reads and the graph
// resources of their bindings.
#include <cstdint>
#include <vector>

#include <volk.h>

#include "core/shader.h"
#include "graph/compute_pass.h"
#include "graph/graph_desc.h"

namespace isoscope {

// `Grid` in dual_common.glsl, member for member.
struct DualPush {
    uint32_t nx, ny, nz, scalarType;
    float iso;
    float originX, originY, originZ;
    float spacingX, spacingY, spacingZ;
    uint32_t tableBuckets; // a power of two
    uint32_t colorClass;   // face colouring: the edge colour it recolours
    uint32_t extraVertexCapacity, extraFaceCapacity; // the method's per-vertex and per-face buffers
    uint32_t activeBlockCapacity; // the block list's entries (compact_blocks)
    uint32_t activeCellCapacity;  // the active cell list's entries (active_cells)
    uint32_t edgeListCapacity;    // the stored-edge list's entries (cells, read by quads)
};
const std::vector<PushMember>& dualPushMembers();

// The method's counters (DualCounters in the shaders), read back outside frames.
struct DualCounters {
    uint32_t edgesStored;      // buckets taken: distinct interior crossed edges
    uint32_t insertsFailed;    // stores that found no bucket: the table grows and the extraction is redone
    uint32_t fallbackVertices; // representatives at a polygon's centroid (no valid sample)
    uint32_t incompleteQuads;  // stored edges without four vertices (an engine bug)
    uint32_t verticesNeeded;   // the mesh's counts where they exceed the method's own buffers
    uint32_t facesNeeded;
    uint32_t activeCellCount;  // cells with geometry (active_cells), listed where they fit
    VkDispatchIndirectCommand cellsDispatch; // prepare_dispatch: cells.comp, one invocation per listed cell
    VkDispatchIndirectCommand quadsDispatch; // prepare_dispatch: quads.comp, one invocation per stored edge
    uint32_t wideSearches;     // polygons whose 7x7 samples held no valid one (the 25x25 search ran)
};

struct DualResources {
    ResourceId volume = kNoResource;   // the samples (storage buffer)
    ResourceId tableKeys = kNoResource;  // edge hash table: keys (transient)
    ResourceId tableQuads = kNoResource; // ... and the four vertex numbers per key (transient)
    ResourceId counters = kNoResource; // DualCounters (the extractor's own)
    ResourceId vertices = kNoResource, indices = kNoResource, meshCounters = kNoResource;
    // The method's per-vertex and per-face outputs (16-byte stand-ins where not asked for).
    ResourceId vertexColors = kNoResource, faceColors = kNoResource;
    ResourceId halfedges = kNoResource, vertexHalfedges = kNoResource;
    ResourceId outgoing = kNoResource, outgoingCounts = kNoResource; // the twin search's lists (transient)
    // The classification: the block method's block list and state, then the cells with geometry.
    ResourceId activeBlocks = kNoResource, blockState = kNoResource, activeCells = kNoResource;
    ResourceId edgeList = kNoResource; // the buckets the cells pass took, for the quads pass
};

// A pass of the method: its program made with the push constants checked,
// bound with the isovalue it records at.
class DualPass : public ComputePass {
protected:
    DualPass(Context& context, std::string_view shader, const SpecValues& values)
        : ComputePass(context, shader, values, dualPushMembers())
    {
    }
    void bind(VkCommandBuffer cmd, const RenderGraph& graph, const std::vector<ResourceUse>& uses, DualPush push,
              float iso) const
    {
        push.iso = iso;
        bindUses(cmd, graph, uses, &push, sizeof push);
    }
};

} // namespace isoscope
