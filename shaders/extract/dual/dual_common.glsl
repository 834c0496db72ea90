// What the Dual Marching Cubes passes share (Grosso & Zint, "A parallel dual
// marching cubes approach to quad only surface reconstruction"): the grid,
// samples, and the edge hash table that gathers each quad's four vertices.
//
// The hash table is keyed by a grid edge's index, 3 * (point index) + axis,
// the point being the edge's lower end; open addressing with quadratic
// (triangular-number) probing over a power-of-two number of buckets, so the
// probe sequence visits every bucket. Each bucket holds the key and the
// quad's four vertex numbers, one slot per incident cell (dual_cells.comp
// picks the slot so that the quad is consistently oriented).
//
// Before including: VOLUME_BINDING for the passes that read samples,
// DUAL_COUNTERS_BINDING (after mesh_output.glsl where that is used), and TABLE_KEYS_BINDING, TABLE_QUADS_BINDING,
// TABLE_ACCESS for the passes that touch the table.

#ifdef VOLUME_BINDING
layout(set = 0, binding = VOLUME_BINDING, std430) readonly buffer VolumeWords { uint volumeWords[]; };
#include "volume_buffer.glsl"
#endif

layout(push_constant) uniform Grid {
    uint nx, ny, nz;
    uint scalarType;
    float iso;
    float originX, originY, originZ;
    float spacingX, spacingY, spacingZ;
    uint tableBuckets; // a power of two
    uint colorClass;   // face_colors.comp: the edge colour whose faces it recolours
    // The method's per-vertex and per-face buffers (halfedges, colours): what they hold.
    uint extraVertexCapacity;
    uint extraFaceCapacity;
    uint activeBlockCapacity; // the block list's entries (compact_blocks)
    uint activeCellCapacity;  // the active cell list's entries (active_cells.comp)
    uint edgeListCapacity;    // the stored-edge list's entries (cells.comp, read by quads.comp)
} grid;

const uint NO_ENTRY = 0xFFFFFFFFu;

#ifdef TABLE_KEYS_BINDING
layout(set = 0, binding = TABLE_KEYS_BINDING, std430) TABLE_ACCESS buffer TableKeys { uint tableKeys[]; };
layout(set = 0, binding = TABLE_QUADS_BINDING, std430) TABLE_ACCESS buffer TableQuads { uvec4 tableQuads[]; };
#endif

#ifdef VOLUME_BINDING
float sampleAt(uvec3 p) { return volumeSampleAt(p.x + grid.nx * (p.y + grid.ny * p.z), grid.scalarType); }
#endif

uvec3 cellCounts() { return uvec3(grid.nx - 1u, grid.ny - 1u, grid.nz - 1u); }

// The grid point of a key, and its axis.
uvec3 keyPoint(uint key)
{
    uint p = key / 3u;
    return uvec3(p % grid.nx, (p / grid.nx) % grid.ny, p / (grid.nx * grid.ny));
}
uint keyAxis(uint key) { return key % 3u; }
uint edgeKey(uvec3 p, uint axis) { return 3u * (p.x + grid.nx * (p.y + grid.ny * p.z)) + axis; }

// A 32-bit mix (the finaliser of MurmurHash3), so that neighbouring edges
// spread over the table.
uint hashKey(uint key)
{
    key ^= key >> 16;
    key *= 0x85EBCA6Bu;
    key ^= key >> 13;
    key *= 0xC2B2AE35u;
    key ^= key >> 16;
    return key;
}

// The probe sequence of a key whose hash is h: triangular-number steps,
// which visit every bucket of a power-of-two table; stores give up after
// MAX_PROBES (the table grows), so lookups do too.
const uint MAX_PROBES = 64u;
uint probeBucket(uint h, uint i) { return (h + i * (i + 1u) / 2u) & (grid.tableBuckets - 1u); }

// Edge e of the cell with lower corner q (numbering as
// engine/extract/case_table.h), from the cell's inside corners: its key,
// whether the surface crosses it, whether it is interior (four cells around
// it: only those make quads), and whether its lower end is inside.
struct CellEdge {
    uint key;
    bool crossed;
    bool interior;
    bool lowerInside;
};

CellEdge cellEdge(uvec3 q, uint insideMask, uint e)
{
    uint axis = e >> 2;
    uint otherLow = axis == 0u ? 1u : 0u;
    uint otherHigh = axis == 2u ? 1u : 2u;
    uint c0 = ((e & 1u) << otherLow) | (((e >> 1) & 1u) << otherHigh);
    uvec3 p = q + uvec3(c0 & 1u, (c0 >> 1) & 1u, c0 >> 2);
    uvec3 dims = uvec3(grid.nx, grid.ny, grid.nz);
    CellEdge edge;
    edge.key = edgeKey(p, axis);
    edge.lowerInside = (insideMask >> c0 & 1u) != 0u;
    edge.crossed = edge.lowerInside != ((insideMask >> (c0 | (1u << axis)) & 1u) != 0u);
    edge.interior = p[otherLow] != 0u && p[otherLow] + 1u < dims[otherLow] && p[otherHigh] != 0u &&
                    p[otherHigh] + 1u < dims[otherHigh];
    return edge;
}

// Workgroups are dispatched in 2D (ComputeProgram::dispatchLine).
uint flatWorkgroupIndex() { return gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x; }

#ifdef DUAL_COUNTERS_BINDING
// The method's counters (DualCounters in dual_layout.h), read back by the host.
layout(set = 0, binding = DUAL_COUNTERS_BINDING, std430) buffer DualCounters {
    uint edgesStored;      // buckets taken: distinct interior crossed edges
    uint insertsFailed;    // stores that found no bucket (the table grows, the extraction is redone)
    uint fallbackVertices; // representatives placed at the centroid (no valid sample)
    uint incompleteQuads;  // stored edges without four vertices (an engine bug)
    uint verticesNeeded;   // the mesh's counts where they exceed the method's own buffers
    uint facesNeeded;
    uint activeCellCount;  // cells with geometry (active_cells.comp), listed where they fit
    uint cellsDispatchX, cellsDispatchY, cellsDispatchZ; // prepare_dispatch.comp: cells.comp's workgroups
    uint quadsDispatchX, quadsDispatchY, quadsDispatchZ; // ... and quads.comp's (uvec3 would align to 16)
    uint wideSearches;     // polygons whose 7x7 samples held no valid one (the 25x25 search ran)
};

#ifdef MESH_COUNTERS_BINDING
// The mesh's counts against the method's per-vertex and per-face buffers:
// an overflow like the mesh's own.
void checkExtraCapacity()
{
    if (meshVertexCount > grid.extraVertexCapacity || meshFaceCount > grid.extraFaceCapacity) {
        verticesNeeded = meshVertexCount;
        facesNeeded = meshFaceCount;
        meshOverflow = 1u;
    }
}
#endif
#endif
