#version 460
// Pass 3 (paper section 4.3): one workgroup per listed block, one invocation
// per cell. Samples are cached in shared memory; each invocation makes the
// vertices of its own voxel's (at most 3) crossed edges and the triangles of
// its cell. The vertex numbers of every crossed edge the block's cells touch
// (its own and those on its upper faces, which belong to upper neighbours:
// the paper's neighbour mapping, Table 1, here as the edge's lower corner)
// are worked out once, into shared memory, before any triangle is assembled:
// a cell's triangles then look each corner up instead of recomputing it, up
// to 15 times an invocation. The pass is bound by how many workgroups a
// multiprocessor holds, which its registers and shared memory set
// (writeOwnVertices, block_edges.glsl), not by memory. Normals by central
// differences of the filtered volume image at the vertex (writeVertex): a
// wider cache for the reference's grid gradients was slower (docs/BENCHMARKS.md).
// Triangle offsets: a workgroup scan of the counts plus one atomic per
// workgroup (section 4.3.2), whose round trip overlaps the edge numbering.
//   WELD: vertex numbers come from count_vertices (block_edges.glsl); the
//   interior vertices are scanned together with the triangles.
//   not WELD: each block numbers every crossed edge its cells touch, its far
//   faces included, so those vertices exist once per block (the paper's
//   mesh), and reserves its vertices with one more atomic.
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require

// The bindings this pass writes (block_common.glsl).
#define STATE_ACCESS
#define EDGE_CODES_ACCESS
#define MESH_OUTPUT_WRITTEN
#define MESH_COUNTERS_WRITTEN
#include "block_common.glsl"
#include "block_edges.glsl"
#include "subgroup_scan.glsl"

layout(local_size_x_id = 1) in;

// WELD: the first vertex of each edge group of this block and its upper
// neighbours (interior last), from their slotVertices; a group's start is
// its index here.
shared uint groupFirstVertex[8u * GROUP_COUNT];
// Each sized for the variant that uses it, and as narrow as it can be: the
// less shared memory a workgroup holds, the faster this pass ran on the H100
// (block_edges.glsl).
// not WELD: first vertex of each cached voxel, within the block.
shared uint16_t cachedVertexOffset[WELD ? 1u : CACHE_SIZE];
// WELD: the vertex on each crossed edge leaving a cached voxel, by axis: as
// a group start (6 bits) and a rank within the group (10 bits) where a
// block's ranks fit, else the vertex number itself.
const uint RANK_BITS = 10u;
const bool NARROW_CODES = 3u * BLOCK_X * BLOCK_Y * BLOCK_Z <= (1u << RANK_BITS);
shared uint16_t edgeCode[WELD && NARROW_CODES ? 3u * CACHE_SIZE : 1u];
shared uint edgeVertex[WELD && !NARROW_CODES ? 3u * CACHE_SIZE : 1u];
shared uint triangleBase;
shared uint vertexBase;                     // not WELD

void setEdgeVertex(uint e, uint groupStart, uint rank)
{
    if (NARROW_CODES)
        edgeCode[e] = uint16_t((groupStart << RANK_BITS) | rank);
    else
        edgeVertex[e] = groupFirstVertex[groupStart] + rank;
}

uint edgeVertexAt(uint e)
{
    if (!NARROW_CODES)
        return edgeVertex[e];
    uint code = uint(edgeCode[e]);
    return groupFirstVertex[code >> RANK_BITS] + (code & ((1u << RANK_BITS) - 1u));
}

// Interior crossed edges of own voxel l along axes below `axis`.
uint interiorEdgesBefore(uvec3 l, uint bits, uint axis)
{
    uint count = 0u;
    for (uint a = 0u; a < axis; ++a)
        if ((bits & (1u << a)) != 0u && edgeGroup(l, a) == GROUP_INTERIOR)
            ++count;
    return count;
}

// WELD: the vertex number of the crossed edge along `axis` leaving cached
// voxel c, which lies on a lower face of the block that owns it (every edge
// of the block's cells does, but the interior edges of the block's own
// voxels, which the owning invocation numbers from its scan offset), into
// edge entry e.
void setBorrowedVertex(uint e, uvec3 c, uint axis)
{
    uvec3 upper = uvec3(greaterThanEqual(c, blockSize()));
    uvec3 l = c - upper * blockSize();
    uint neighbour = upper.x + 2u * upper.y + 4u * upper.z;
    uint group = edgeGroup(l, axis);
    setEdgeVertex(e, neighbour * GROUP_COUNT + group, rankInGroup(neighbour, l, axis, group));
}

// The volume holds non-finite samples (block_extractor.cpp knows from its
// stats): only then is the grid rule for normals compiled in, as it costs
// registers and so occupancy (docs/BENCHMARKS.md).
layout(constant_id = 20) const bool NON_FINITE_SAMPLES = false;

// The reference's rule in the whole volume's z: a streamed slab's image holds
// the planes on either side of its grid where the volume has them, so its
// end planes take central differences as in core.
float gridSample(uvec3 p) { return fieldAt(ivec3(p) - ivec3(0, 0, params.firstPlane)); }
uvec3 gridDims() { return uvec3(params.dims.xy, params.volumePlanes); }
vec3 gridSpacing() { return params.spacing; }
#include "grid_gradient.glsl"

vec3 unitVector(uint axis) { return vec3(equal(uvec3(axis), uvec3(0u, 1u, 2u))); }

void writeVertex(ivec3 origin, uvec3 c, uint axis, uint index)
{
    vec3 along = unitVector(axis);
    float a = cachedSample(cacheIndex(c));
    float b = cachedSample(cacheIndex(c + uvec3(along)));
    float t = isFiniteValue(a) && isFiniteValue(b) ? (params.iso - a) / (b - a) : 0.5;
    vec3 p = vec3(origin + ivec3(c) + ivec3(0, 0, params.firstPlane)) + t * along;
    vec3 gradient = centralDifferences(p) / (2.0 * params.spacing);
    // Next to a non-finite sample the filtered differences are not finite:
    // there, the reference's own rule from the grid samples (which skips
    // them), interpolated between the edge's ends as the reference does.
    if (NON_FINITE_SAMPLES && !(isFiniteValue(gradient.x) && isFiniteValue(gradient.y) && isFiniteValue(gradient.z))) {
        uvec3 q = uvec3(origin + ivec3(c) + ivec3(0, 0, params.firstPlane));
        gradient = mix(gridGradient(q), gridGradient(q + uvec3(along)), t);
    }
    vec3 normal = -gradient;
    float length2 = dot(normal, normal);
    if (length2 > 0.0 && isFiniteValue(length2))
        normal *= inversesqrt(length2);
    else
        normal = isInside(a) ? along : -along; // from the inside end toward the outside end
    writeMeshVertex(index, params.origin + p * params.spacing, normal);
    if (EDGE_CODES && index < meshVertexCapacity) {
        ivec3 q = origin + ivec3(c);
        bool onEndPlane = axis < 2u && (q.z == 0 || q.z == params.dims.z - 1);
        vertexEdgeCodes[index] = onEndPlane ? (q.z != 0 ? 1u << 31 : 0u) | (uint(q.y * params.dims.x + q.x) << 1) | axis
                                            : kNoEdgeCode;
    }
}

// not WELD: the vertex on the crossed edge along `axis` leaving cached voxel i.
uint blockVertexIndex(uint i, uint axis)
{
    return vertexBase + uint(cachedVertexOffset[i]) + bitCount(crossedBitsAt(i) & ((1u << axis) - 1u));
}

// Numbers the crossed edges leaving cached voxel i. WELD: into edgeCode or
// edgeVertex, `interiorRank` being the rank of the voxel's first interior
// edge in the block's interior group (only own voxels have any); the own
// voxels' vertices are written later (writeOwnVertices). not WELD: writes
// the vertices this block makes on them.
void numberEdges(ivec3 origin, uint i, uint interiorRank)
{
    uint bits = crossedBitsAt(i);
    uvec3 c = cacheCoordinates(i);
    bool own = all(lessThan(c, blockSize()));
    for (uint axis = 0u; axis < 3u; ++axis) {
        if ((bits & (1u << axis)) == 0u)
            continue;
        uint e = 3u * i + axis;
        if (!WELD) {
            writeVertex(origin, c, axis, blockVertexIndex(i, axis));
            continue;
        }
        if (own && edgeGroup(c, axis) == GROUP_INTERIOR)
            setEdgeVertex(e, GROUP_INTERIOR, interiorRank + interiorEdgesBefore(c, bits, axis));
        else
            setBorrowedVertex(e, c, axis);
    }
}

// WELD: the vertices on the crossed edges leaving own voxel l, after the
// numbering: written here rather than while numbering, the pass needs fewer
// registers, so more workgroups fit a multiprocessor (docs/BENCHMARKS.md).
void writeOwnVertices(ivec3 origin, uvec3 l)
{
    uint i = cacheIndex(l);
    uint bits = crossedBitsAt(i);
    for (uint axis = 0u; axis < 3u; ++axis)
        if ((bits & (1u << axis)) != 0u)
            writeVertex(origin, l, axis, edgeVertexAt(3u * i + axis));
}

void main()
{
    uint slot = listedSlot();
    if (slot >= listedCount())
        return; // uniform across the workgroup
    uvec3 block = blockCoordinates(activeBlocks[slot]);
    ivec3 origin = ivec3(block * blockSize());
    uint tid = gl_LocalInvocationIndex;
    loadBlockSamples(origin);
    // While the samples load: where this block's upper neighbours number
    // their edge groups.
    for (uint n = tid; WELD && n < 8u; n += WORKGROUP_SIZE) {
        uvec3 neighbour = block + uvec3(n & 1u, (n >> 1) & 1u, (n >> 2) & 1u);
        uint s = all(lessThan(neighbour, params.blockCounts)) ? listedSlotOf(blockIndexOf(neighbour)) : kNoSlot;
        // A neighbour not listed has no crossed edges, so none is looked up.
        uint first = 0u;
        uvec2 packed = uvec2(0u);
        if (s != kNoSlot) {
            first = slotVertices[s * SLOT_WORDS + SLOT_FIRST_VERTEX];
            packed = uvec2(slotVertices[s * SLOT_WORDS + SLOT_GROUP_SIZES],
                           SLOT_WORDS > 2u ? slotVertices[s * SLOT_WORDS + SLOT_GROUP_SIZES + 1u] : 0u);
        }
        for (uint g = 0u; g < GROUP_COUNT; ++g) {
            groupFirstVertex[n * GROUP_COUNT + g] = first;
            if (g < BORROWED_GROUP_COUNT)
                first += unpackGroupSize(packed, g);
        }
    }
    barrier();
    markCrossedEdges(origin);

    // The workgroup is rounded up to whole subgroups; the extra invocations
    // own no voxel but take part in the barriers and scans.
    bool ownsVoxel = tid < BLOCK_X * BLOCK_Y * BLOCK_Z;
    uvec3 l = uvec3(tid % BLOCK_X, (tid / BLOCK_X) % BLOCK_Y, tid / (BLOCK_X * BLOCK_Y));
    bool cellExists = ownsVoxel && all(lessThan(origin + ivec3(l) + 1, params.dims));
    uint caseIndex = cellExists ? cellCase(l) : 0u;
    uint triangles = cellExists ? caseTriangleCount(caseIndex) : 0u;
    uint interior = WELD && ownsVoxel ? interiorEdgesBefore(l, crossedBitsOf(l, origin), 3u) : 0u;

    // Its first barrier also publishes markCrossedEdges' results.
    uvec2 total;
    uvec2 offset = workgroupExclusiveAdd2(uvec2(interior, triangles), total);

    if (WELD) {
        uint firstTriangle = 0u;
        if (tid == 0u) {
            firstTriangle = total.y > 0u ? atomicAdd(meshFaceCount, total.y) : 0u;
            // For benchmarks: listed blocks that make vertices (own edges) or triangles.
            uint ownVertices = groupFirstVertex[GROUP_INTERIOR] - groupFirstVertex[0] + total.x;
            if (ownVertices > 0u || total.y > 0u)
                atomicAdd(meshBlockCount, 1u);
        }
        if (ownsVoxel)
            numberEdges(origin, cacheIndex(l), offset.x);
        // The cached voxels on the upper faces, which upper neighbours own.
        for (uint i = tid; i < CACHE_SIZE; i += WORKGROUP_SIZE)
            if (any(greaterThanEqual(cacheCoordinates(i), blockSize())))
                numberEdges(origin, i, 0u);
        if (tid == 0u)
            triangleBase = firstTriangle; // only now waits for the atomic
    } else {
        uint vertexTotal = 0u;
        for (uint first = 0u; first < CACHE_SIZE; first += WORKGROUP_SIZE) {
            uint i = first + tid;
            uint chunkTotal;
            uint chunkOffset = workgroupExclusiveAdd(i < CACHE_SIZE ? bitCount(crossedBitsAt(i)) : 0u, chunkTotal);
            if (i < CACHE_SIZE) // at most 3 * CACHE_SIZE
                cachedVertexOffset[i] = uint16_t(vertexTotal + chunkOffset);
            vertexTotal += chunkTotal;
        }
        if (tid == 0u) {
            triangleBase = total.y > 0u ? atomicAdd(meshFaceCount, total.y) : 0u;
            vertexBase = vertexTotal > 0u ? atomicAdd(meshVertexCount, vertexTotal) : 0u;
        }
        barrier();
        for (uint i = tid; i < CACHE_SIZE; i += WORKGROUP_SIZE)
            numberEdges(origin, i, 0u);
    }
    if (WELD)
        barrier(); // edgeVertex and triangleBase

    if (WELD && ownsVoxel)
        writeOwnVertices(origin, l);
    if (triangles == 0u)
        return;
    uvec2 words = caseWords(caseIndex);
    for (uint t = 0u; t < triangles; ++t) {
        uint v[3];
        for (uint k = 0u; k < 3u; ++k) {
            uint e = caseEdgeIn(words, 3u * t + k);
            uint i = cacheIndex(l + cubeEdgeStart(e));
            v[k] = WELD ? edgeVertexAt(3u * i + cubeEdgeAxis(e)) : blockVertexIndex(i, cubeEdgeAxis(e));
        }
        writeMeshTriangle(triangleBase + offset.y + t, v[0], v[1], v[2]);
    }
}
