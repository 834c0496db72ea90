#version 460
// Pass 3 (paper section 4.3): one workgroup per listed block, one invocation
// per cell. Samples are cached in shared memory; each invocation makes the
// vertices of its own voxel's (at most 3) crossed edges and the triangles of
// its cell, numbering the vertices of the other 9 cell edges through the
// voxel that owns them (the paper's neighbour mapping, Table 1, here as the
// edge's lower corner). Triangle offsets: a workgroup scan of the counts plus
// one atomic per workgroup (section 4.3.2). Normals by central differences
// of the filtered volume image at the vertex (writeVertex): a cache one
// voxel wider for the reference's grid gradients made this pass 0.21 ms
// slower at 1024³ on the H100.
//   WELD: vertex numbers come from count_vertices (block_edges.glsl).
//   not WELD: each block numbers every crossed edge its cells touch, its far
//   faces included, so those vertices exist once per block (the paper's mesh).
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require

#include "block_common.glsl"
#include "block_edges.glsl"
#include "subgroup_scan.glsl"

layout(local_size_x_id = 1) in;

// WELD: the first vertex of each edge group of this block and its upper
// neighbours (interior last), from their slotVertices.
shared uint groupFirstVertex[8u * GROUP_COUNT];
shared uint interiorOffset[WORKGROUP_SIZE];   // WELD: first interior vertex of each voxel, within the group
shared uint cachedVertexOffset[CACHE_SIZE];   // not WELD: first vertex of each cached voxel, within the block
shared uint triangleBase;
shared uint vertexBase;                       // not WELD

uint voxelIndex(uvec3 l) { return l.x + BLOCK_X * (l.y + BLOCK_Y * l.z); }

// Interior crossed edges of own voxel l along axes below `axis`.
uint interiorEdgesBefore(uvec3 l, uint axis)
{
    uint count = 0u;
    for (uint a = 0u; a < axis; ++a)
        if (isCrossed(l, a) && edgeGroup(l, a) == GROUP_INTERIOR)
            ++count;
    return count;
}

// The vertex number of the crossed edge along `axis` leaving cached voxel c.
uint vertexIndex(uvec3 c, uint axis)
{
    if (!WELD) {
        uint bits = crossedEdges[cacheIndex(c)];
        return vertexBase + cachedVertexOffset[cacheIndex(c)] + bitCount(bits & ((1u << axis) - 1u));
    }
    uvec3 upper = uvec3(greaterThanEqual(c, blockSize()));
    uvec3 l = c - upper * blockSize();
    uint neighbour = upper.x + 2u * upper.y + 4u * upper.z;
    uint group = edgeGroup(l, axis);
    uint rank = group == GROUP_INTERIOR ? interiorOffset[voxelIndex(l)] + interiorEdgesBefore(l, axis)
                                        : rankInGroup(neighbour, l, axis, group);
    return groupFirstVertex[neighbour * GROUP_COUNT + group] + rank;
}

void writeVertex(ivec3 origin, uvec3 c, uint axis)
{
    uvec3 next = c;
    next[axis] += 1u;
    float a = cachedValue[cacheIndex(c)];
    float b = cachedValue[cacheIndex(next)];
    float t = isFiniteValue(a) && isFiniteValue(b) ? (params.iso - a) / (b - a) : 0.5;
    vec3 p = vec3(origin + ivec3(c));
    p[axis] += t;
    vec3 gradient;
    for (uint i = 0u; i < 3u; ++i) {
        vec3 step = vec3(0.0);
        step[i] = 1.0;
        gradient[i] = (fieldBetween(p + step) - fieldBetween(p - step)) / (2.0 * params.spacing[i]);
    }
    vec3 normal = -gradient;
    float length2 = dot(normal, normal);
    if (length2 > 0.0 && isFiniteValue(length2)) {
        normal *= inversesqrt(length2);
    } else {
        normal = vec3(0.0);
        normal[axis] = isInside(a) ? 1.0 : -1.0; // from the inside end toward the outside end
    }
    writeMeshVertex(vertexIndex(c, axis), params.origin + p * params.spacing, normal);
}

void main()
{
    uint slot = listedSlot();
    if (slot >= listedCount())
        return; // uniform across the workgroup
    uvec3 block = blockCoordinates(activeBlocks[slot]);
    ivec3 origin = ivec3(block * blockSize());
    uint tid = gl_LocalInvocationIndex;
    for (uint n = tid; WELD && n < 8u; n += WORKGROUP_SIZE) {
        uvec3 neighbour = block + uvec3(n & 1u, (n >> 1) & 1u, (n >> 2) & 1u);
        uint s = all(lessThan(neighbour, params.blockCounts)) ? listedSlotOf(blockIndexOf(neighbour)) : kNoSlot;
        // A neighbour not listed has no crossed edges, so none is looked up.
        uint first = 0u;
        uvec2 packed = uvec2(0u);
        if (s != kNoSlot) {
            first = slotVertices[s * SLOT_WORDS];
            packed = uvec2(slotVertices[s * SLOT_WORDS + 1u], SLOT_WORDS > 2u ? slotVertices[s * SLOT_WORDS + 2u] : 0u);
        }
        for (uint g = 0u; g < GROUP_COUNT; ++g) {
            groupFirstVertex[n * GROUP_COUNT + g] = first;
            if (g < BORROWED_GROUP_COUNT)
                first += unpackGroupSize(packed, g);
        }
    }
    cacheBlock(origin);

    // The workgroup is rounded up to whole subgroups; the extra invocations
    // own no voxel but take part in the barriers and scans.
    bool ownsVoxel = tid < BLOCK_X * BLOCK_Y * BLOCK_Z;
    uvec3 l = uvec3(tid % BLOCK_X, (tid / BLOCK_X) % BLOCK_Y, tid / (BLOCK_X * BLOCK_Y));
    bool cellExists = ownsVoxel && all(lessThan(origin + ivec3(l) + 1, params.dims));
    uint caseIndex = cellExists ? cellCase(l) : 0u;
    uint triangles = cellExists ? caseTriangleCount(caseIndex) : 0u;
    uint interior = WELD && ownsVoxel ? interiorEdgesBefore(l, 3u) : 0u;

    uvec2 total;
    uvec2 offset = workgroupExclusiveAdd2(uvec2(interior, triangles), total);
    if (WELD)
        interiorOffset[tid] = offset.x;

    uint vertexTotal = 0u;
    if (!WELD) {
        for (uint first = 0u; first < CACHE_SIZE; first += WORKGROUP_SIZE) {
            uint i = first + tid;
            uint chunkTotal;
            uint chunkOffset = workgroupExclusiveAdd(i < CACHE_SIZE ? bitCount(crossedEdges[i]) : 0u, chunkTotal);
            if (i < CACHE_SIZE)
                cachedVertexOffset[i] = vertexTotal + chunkOffset;
            vertexTotal += chunkTotal;
        }
    }
    if (tid == 0u) {
        triangleBase = total.y > 0u ? atomicAdd(meshFaceCount, total.y) : 0u;
        if (!WELD)
            vertexBase = vertexTotal > 0u ? atomicAdd(meshVertexCount, vertexTotal) : 0u;
        // For benchmarks: listed blocks that make vertices (own edges) or triangles.
        uint ownVertices = groupFirstVertex[GROUP_INTERIOR] - groupFirstVertex[0] + total.x;
        if (WELD && (ownVertices > 0u || total.y > 0u))
            atomicAdd(meshBlockCount, 1u);
    }
    barrier();

    if (WELD && ownsVoxel) {
        for (uint axis = 0u; axis < 3u; ++axis)
            if (isCrossed(l, axis))
                writeVertex(origin, l, axis);
    } else if (!WELD) {
        for (uint i = tid; i < CACHE_SIZE; i += WORKGROUP_SIZE)
            for (uint axis = 0u; axis < 3u; ++axis)
                if ((crossedEdges[i] & (1u << axis)) != 0u)
                    writeVertex(origin, cacheCoordinates(i), axis);
    }

    for (uint t = 0u; t < triangles; ++t) {
        uint v[3];
        for (uint k = 0u; k < 3u; ++k) {
            uint e = caseEdge(caseIndex, 3u * t + k);
            v[k] = vertexIndex(l + cubeEdgeStart(e), cubeEdgeAxis(e));
        }
        writeMeshTriangle(triangleBase + offset.y + t, v[0], v[1], v[2]);
    }
}
