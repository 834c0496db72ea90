#pragma once
// What the scan method's passes share: the graph resources of one
// extraction, and the push constants of count, list and generate
// (`Grid` in shaders/extract/scan/scan_grid.glsl, member for member).
#include <cstdint>
#include <initializer_list>
#include <vector>

#include "core/shader.h"
#include "graph/compute_pass.h"
#include "graph/graph_desc.h"

namespace isoscope {

struct ScanGridPush {
    uint32_t nx, ny, nz, z0, planes, slabFlags, scalarType;
    float iso;
    float originX, originY, originZ;
    float spacingX, spacingY, spacingZ;
    uint32_t listCapacity;
    uint32_t volumeFirstPlane, volumeFirstSample; // the bound planes of the volume (SlabVolumeRange)
    uint32_t columnTiles;                         // tiles a count workgroup walks up (scanColumnTiles)
};
const std::vector<PushMember>& scanGridPushMembers();

constexpr uint32_t kSlabFirst = 1, kSlabLast = 2;

struct ScanResources {
    ResourceId volume = kNoResource;     // the samples (bound a slab's planes at a time)
    ResourceId caseTable = kNoResource;
    ResourceId blockSums = kNoResource;  // per tile: vertices, triangles, occupied points; then offsets (transient)
    ResourceId spanBits = kNoResource;   // per tile: a bit per span with occupied points (transient)
    ResourceId rowStarts = kNoResource;  // (transient)
    ResourceId list = kNoResource;       // occupied points of a slab (transient)
    ResourceId slabTotals = kNoResource; // (transient)
    ResourceId slabBase = kNoResource;   // first vertex and triangle of a slab (transient)
    ResourceId dispatch = kNoResource;   // generate's indirect dispatch (transient)
    ResourceId listNeeded = kNoResource; // read back after the frame: imported
    ResourceId seams[2] = {kNoResource, kNoResource}; // vertex numbers of a shared plane (transient)
    ResourceId vertices = kNoResource, indices = kNoResource, counters = kNoResource;
    ResourceId edgeCodes = kNoResource;  // a vertex's edge code (streamed slabs; else 16 unused bytes)
};

// One slab as the passes see it: its push constants and the volume's bytes
// bound for it. Count, list and generate read it when the graph records (like
// the isovalue), so it must outlive the graph; a streamed slab's placement
// changes it between recordings of one compiled graph.
struct ScanSlab {
    uint32_t index = 0;
    ScanGridPush push{};
    VkDeviceSize volumeOffset = 0, volumeBytes = 0;
    uint64_t tiles = 0;
    uint64_t countGroups = 0; // workgroups of the count pass: columns of tiles
};

// A pass of the method over one slab: its program made with the grid's push
// constants checked.
class ScanPass : public ComputePass {
protected:
    ScanPass(Context& context, std::string_view shader, const SpecValues& values)
        : ComputePass(context, shader, values, scanGridPushMembers())
    {
    }
    // Binds `descriptors`, in binding order, and the slab's push constants at `iso`.
    void bindSlab(VkCommandBuffer cmd, std::initializer_list<DescriptorInfo> descriptors, const ScanSlab& slab,
                  float iso) const
    {
        ScanGridPush push = slab.push;
        push.iso = iso;
        program_.bind(cmd, descriptors, &push, sizeof push);
    }
    // All a pass binds of the volume: the slab's planes (SlabVolumeRange).
    static DescriptorInfo slabPlanes(const RenderGraph& graph, ResourceId volume, const ScanSlab& slab);
};

} // namespace isoscope
