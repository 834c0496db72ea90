#version 460
// Welded meshes only, before the triangle pass: each listed block counts the
// crossed edges it owns, group by group (block_edge_groups.glsl), reserves
// them and stores its first vertex and its groups' sizes, so
// that its lower neighbours can number the vertices they borrow from it.
//
// Counting needs only which side of the isovalue each sample is on, not the
// samples: a block is held as one bitmask per x-row of its samples (and one
// bit for the row's sample in the overlap, so blocks up to 32 wide fit), an
// invocation per own row (the overlap's rows taken as second rows), and crossed
// edges are XORs of a row with itself shifted (x) or with the next row (y,
// z), counted with popcounts. So an invocation does the work that a cell's
// invocation did for a whole row, and COUNT_BLOCKS_PER_GROUP blocks share a
// workgroup of COUNT_BLOCKS_PER_GROUP * COUNT_ROW_LANES invocations (rounded
// up to whole subgroups; block_extractor.cpp sizes both), with two barriers,
// and the workgroup's vertices reserved with one atomic.
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require

// The bindings this pass writes (block_common.glsl).
#define SLOT_VERTICES_ACCESS
#define MESH_COUNTERS_WRITTEN
#include "block_common.glsl"
#include "block_edge_groups.glsl"
#include "subgroup_scan.glsl"

layout(local_size_x_id = 1) in;

const uint ROWS_Y = BLOCK_Y + 1u, ROWS_Z = BLOCK_Z + 1u;
const uint ROW_COUNT = ROWS_Y * ROWS_Z;

shared uint insideRow[COUNT_BLOCKS_PER_GROUP * ROW_COUNT];  // bit x: sample x of the row is inside
shared uint insideAfter[COUNT_BLOCKS_PER_GROUP * ROW_COUNT]; // 1: sample BLOCK_X (the overlap) is inside
shared uint groupCount[COUNT_BLOCKS_PER_GROUP * GROUP_COUNT];
shared uint workgroupFirstVertex;

uint rowIndex(uint block, uint y, uint z) { return block * ROW_COUNT + y + ROWS_Y * z; }

uint lowBits(int n) { return n <= 0 ? 0u : n >= 32 ? 0xFFFFFFFFu : (1u << uint(n)) - 1u; }

void main()
{
    uint tid = gl_LocalInvocationIndex;
    uint local = min(tid / COUNT_ROW_LANES, COUNT_BLOCKS_PER_GROUP - 1u);
    uint lane = tid - local * COUNT_ROW_LANES; // past COUNT_ROW_LANES: an invocation of the rounding, idle
    uint slot = (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * COUNT_BLOCKS_PER_GROUP + local;
    bool listed = lane < COUNT_ROW_LANES && slot < listedCount();
    ivec3 origin = listed ? ivec3(blockCoordinates(activeBlocks[slot]) * blockSize()) : ivec3(0);

    if (listed && lane == 0u)
        for (uint g = 0u; g < GROUP_COUNT; ++g)
            groupCount[local * GROUP_COUNT + g] = 0u;
    // Samples past the volume are outside the masks' valid bits below.
    int samplesX = clamp(params.dims.x - origin.x, 0, int(BLOCK_X + 1u));
    for (uint r = lane; listed && r < ROW_COUNT; r += COUNT_ROW_LANES) {
        uint y = r % ROWS_Y, z = r / ROWS_Y;
        ivec3 p = origin + ivec3(0, y, z);
        uint bits = 0u, after = 0u;
        if (p.y < params.dims.y && p.z < params.dims.z) {
            // Clamped, so that every load is issued at once; samples past
            // the volume are masked out here.
            for (uint x = 0u; x <= BLOCK_X; ++x) {
                float value = fieldAt(min(p + ivec3(x, 0, 0), params.dims - 1));
                bool inside = int(x) < samplesX && isInside(value);
                if (x < BLOCK_X)
                    bits |= inside ? 1u << x : 0u;
                else
                    after = inside ? 1u : 0u;
            }
        }
        insideRow[rowIndex(local, y, z)] = bits;
        insideAfter[rowIndex(local, y, z)] = after;
    }
    barrier();

    // The block's own rows; an edge exists where both its ends are in the volume.
    uint voxelsX = lowBits(min(params.dims.x - origin.x, int(BLOCK_X)));
    uint edgesX = lowBits(min(params.dims.x - 1 - origin.x, int(BLOCK_X)));
    for (uint r = lane; listed && r < BLOCK_Y * BLOCK_Z; r += COUNT_ROW_LANES) {
        uint y = r % BLOCK_Y, z = r / BLOCK_Y;
        ivec3 p = origin + ivec3(0, y, z);
        if (p.y >= params.dims.y || p.z >= params.dims.z)
            continue;
        uint m = insideRow[rowIndex(local, y, z)];
        uint next = (m >> 1) | (insideAfter[rowIndex(local, y, z)] << (BLOCK_X - 1u)); // bit x: sample x + 1
        uint crossed[3] = uint[3]((m ^ next) & edgesX,
                                  p.y + 1 < params.dims.y ? (m ^ insideRow[rowIndex(local, y + 1u, z)]) & voxelsX : 0u,
                                  p.z + 1 < params.dims.z ? (m ^ insideRow[rowIndex(local, y, z + 1u)]) & voxelsX : 0u);
        // Along a row an edge's group depends only on whether its voxel is
        // the row's first (edgeGroup looks at l.x == 0 only).
        for (uint axis = 0u; axis < 3u; ++axis) {
            uint first = crossed[axis] & 1u, rest = crossed[axis] & ~1u;
            if (first != 0u)
                atomicAdd(groupCount[local * GROUP_COUNT + edgeGroup(uvec3(0u, y, z), axis)], 1u);
            if (rest != 0u)
                atomicAdd(groupCount[local * GROUP_COUNT + edgeGroup(uvec3(1u, y, z), axis)], uint(bitCount(rest)));
        }
    }
    barrier();

    bool leader = listed && lane == 0u;
    uint sizes[BORROWED_GROUP_COUNT];
    uint vertices = 0u;
    if (leader) {
        vertices = groupCount[local * GROUP_COUNT + GROUP_INTERIOR];
        for (uint g = 0u; g < BORROWED_GROUP_COUNT; ++g) {
            sizes[g] = groupCount[local * GROUP_COUNT + g];
            vertices += sizes[g];
        }
    }
    // One atomic a workgroup: every block's reserved the same way on one
    // counter was a long queue at that counter.
    uint total;
    uint offset = workgroupExclusiveAdd(vertices, total);
    if (tid == 0u)
        workgroupFirstVertex = total > 0u ? atomicAdd(meshVertexCount, total) : 0u;
    barrier();
    if (leader) {
        uint entry = slot * SLOT_WORDS;
        uvec2 packed = packGroupSizes(sizes);
        slotVertices[entry + SLOT_FIRST_VERTEX] = vertices > 0u ? workgroupFirstVertex + offset : 0u;
        slotVertices[entry + SLOT_GROUP_SIZES] = packed.x;
        if (SLOT_WORDS > 2u)
            slotVertices[entry + SLOT_GROUP_SIZES + 1u] = packed.y;
    }
}
