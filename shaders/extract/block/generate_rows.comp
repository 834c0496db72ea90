#version 460
// Pass 3 (paper section 4.3) with an invocation per x-row of a block's
// samples and TEAMS blocks a workgroup (block_rows.glsl): a row's crossed
// edges and active cells are bit masks, and an invocation visits only their
// set bits. generate_triangles (the paper's mapping, an invocation per cell)
// leaves most invocations idle and holds fewer blocks in flight; this pass
// is the faster on large volumes, that one on small (block_extractor.cpp).
// Each row writes the vertices of the crossed edges it owns and the
// triangles of its cells. A corner's vertex: its edge's group (this block's
// or an upper neighbour's: the paper's neighbour mapping, Table 1, here as
// the edge's lower corner), its row's code there and a popcount (numberRow).
// Normals by central differences of the filtered volume image at the vertex
// (writeVertex). Triangle offsets: one atomic per subgroup.
//   WELD: vertex numbers come from count_vertices (block_rows.glsl); the
//   interior ones are ranked within the block by row, with a shared counter.
//   not WELD: each block numbers every crossed edge its cells touch, its far
//   faces included, so those vertices exist once per block (the paper's
//   mesh), reserved with one atomic per subgroup.
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
#include "block_rows.glsl"

layout(local_size_x_id = 1) in;

// WELD: per team, the first vertex of each edge group of its block and its
// upper neighbours (interior last), from their slotVertices.
shared uint groupFirstVertex[WELD ? TEAMS * 8u * GROUP_COUNT : 1u];
// WELD: per team, interior edges ranked so far; triangles (for benchmarks).
shared uint teamInterior[TEAMS];
shared uint teamTriangles[TEAMS];

uint firstVertexOf(uint team, uint neighbour, uint group) { return groupFirstVertex[(team * 8u + neighbour) * GROUP_COUNT + group]; }

// WELD: per team and row, where the vertices of the row's crossed edges
// are: the edges of one row along one axis lie in one group but for the
// first (x = 0, axes y and z) and the overlap column's (x = BLOCK_X, the +x
// neighbour's), and are consecutive there (positionInGroup and the interior
// order), so seven codes a row number them all: per axis the run's (from x =
// 0 along x, from x = 1 along y and z), the first y and z edges', the
// overlap's y and z edges'. A code is a group start (6 bits: neighbour *
// GROUP_COUNT + group) and a rank within the group (10 bits) where a block's
// ranks fit, else the vertex number. A table by edge took 1,350 bytes a block
// of 8x4x4 where these take 350, and shared memory per workgroup sets how
// many blocks a multiprocessor holds (docs/BENCHMARKS.md).
const uint RANK_BITS = 10u;
const bool NARROW_CODES = 3u * BLOCK_X * BLOCK_Y * BLOCK_Z < (1u << RANK_BITS);
const uint ROW_CODES = 7u;
const uint CODE_RUN = 0u, CODE_FIRST = 2u, CODE_END = 4u; // + axis (1 or 2 for FIRST and END)
shared uint16_t rowCode[WELD && NARROW_CODES ? TEAMS * ROW_COUNT * ROW_CODES : 1u];
shared uint rowVertex[WELD && !NARROW_CODES ? TEAMS * ROW_COUNT * ROW_CODES : 1u];

void setRowCode(uint team, uint i, uint groupStart, uint rank)
{
    if (NARROW_CODES)
        rowCode[i] = uint16_t((groupStart << RANK_BITS) | rank);
    else
        rowVertex[i] = groupFirstVertex[team * 8u * GROUP_COUNT + groupStart] + rank;
}

uint rowCodeVertex(uint team, uint i)
{
    if (!NARROW_CODES)
        return rowVertex[i];
    uint code = uint(rowCode[i]);
    return groupFirstVertex[team * 8u * GROUP_COUNT + (code >> RANK_BITS)] + (code & ((1u << RANK_BITS) - 1u));
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

void writeVertex(uint team, ivec3 origin, uvec3 c, uint axis, uint index)
{
    vec3 along = unitVector(axis);
    float a = fieldAt(origin + ivec3(c));
    float b = fieldAt(origin + ivec3(c) + ivec3(along));
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

// The vertex on the crossed edge along `axis` leaving sample c of the block's
// box, which a cell of the team's block touches (WELD: after numberRow and a barrier).
uint vertexOf(uint team, uvec3 c, uint axis)
{
    uint row = rowIndex(team, c.y, c.z);
    if (!WELD)
        return rowFirstAt(row) + rankInRow(team, c, axis);
    if (c.x == BLOCK_X)
        return rowCodeVertex(team, row * ROW_CODES + CODE_END + axis);
    if (axis != 0u && c.x == 0u)
        return rowCodeVertex(team, row * ROW_CODES + CODE_FIRST + axis);
    uint before = crossedAt(row, axis) & lowBits(int(c.x)) & (axis == 0u ? 0xFFFFFFFFu : 0xFFFFFFFEu);
    return rowCodeVertex(team, row * ROW_CODES + CODE_RUN + axis) + bitCount(before);
}

// WELD: code i of a row for the edge (c, axis), or for where it would be
// (a run's first position, crossed or not), in a line or face group of this
// block or of the upper neighbour that owns it.
void setGroupCode(uint team, uint i, uvec3 c, uint axis)
{
    uvec3 upper = uvec3(greaterThanEqual(c, blockSize()));
    uvec3 l = c - upper * blockSize();
    uint neighbour = upper.x + 2u * upper.y + 4u * upper.z;
    uint group = edgeGroup(l, axis);
    setRowCode(team, i, neighbour * GROUP_COUNT + group, rankInGroup(team, neighbour, l, axis, group));
}

// WELD: the codes of row (y, z) along `axis`, its interior edges ranked
// from `interior` on; returns the interior rank after them.
uint numberAxis(uint team, uint y, uint z, uint axis, uint interior)
{
    uint row = rowIndex(team, y, z);
    uint bits = crossedAt(row, axis);
    uint runStart = axis == 0u ? 0u : 1u;
    uint run = bits & ~lowBits(int(runStart));
    uint inside = ownRow(y, z) ? run & interiorMask(axis, y, z) : 0u;
    if (inside != 0u) // a run is interior whole or not at all
        setRowCode(team, row * ROW_CODES + CODE_RUN + axis, GROUP_INTERIOR, interior);
    else if (run != 0u)
        setGroupCode(team, row * ROW_CODES + CODE_RUN + axis, uvec3(runStart, y, z), axis);
    if (axis != 0u && (bits & 1u) != 0u)
        setGroupCode(team, row * ROW_CODES + CODE_FIRST + axis, uvec3(0u, y, z), axis);
    if ((uint(crossedEnd[row]) & (1u << axis)) != 0u)
        setGroupCode(team, row * ROW_CODES + CODE_END + axis, uvec3(BLOCK_X, y, z), axis);
    return interior + bitCount(inside);
}

void numberRow(uint team, uint y, uint z)
{
    uint interior = rowFirstAt(rowIndex(team, y, z));
    interior = numberAxis(team, y, z, 0u, interior);
    interior = numberAxis(team, y, z, 1u, interior);
    numberAxis(team, y, z, 2u, interior);
}

// WELD: where the team's block and its upper neighbours number their edge
// groups.
void loadGroupStarts(uint team, uint lane, uvec3 block)
{
    for (uint n = lane; n < 8u; n += ROW_LANES) {
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
            groupFirstVertex[(team * 8u + n) * GROUP_COUNT + g] = first;
            if (g < BORROWED_GROUP_COUNT)
                first += unpackGroupSize(packed, g);
        }
    }
}

// How many triangles own row (y, z)'s cells make.
uint rowTriangleCount(uint team, ivec3 origin, uint y, uint z)
{
    uvec4 low, high;
    cellRows(team, y, z, low, high);
    uint count = 0u;
    for (uint cells = activeCells(origin, y, z, low, high); cells != 0u; cells &= cells - 1u)
        count += caseTriangleCount(cellCase(findLSB(cells), low, high));
    return count;
}

// Writes the triangles of own row (y, z)'s cells from face `first` on;
// returns the face after them.
uint writeRowTriangles(uint team, ivec3 origin, uint y, uint z, uint first)
{
    uvec4 low, high;
    cellRows(team, y, z, low, high);
    for (uint cells = activeCells(origin, y, z, low, high); cells != 0u; cells &= cells - 1u) {
        uint x = findLSB(cells);
        uint caseIndex = cellCase(x, low, high);
        uvec2 words = caseWords(caseIndex);
        uint triangles = caseTriangleCount(caseIndex);
        for (uint t = 0u; t < triangles; ++t) {
            uint v[3];
            for (uint k = 0u; k < 3u; ++k) {
                uint e = caseEdgeIn(words, 3u * t + k);
                v[k] = vertexOf(team, uvec3(x, y, z) + cubeEdgeStart(e), cubeEdgeAxis(e));
            }
            writeMeshTriangle(first++, v[0], v[1], v[2]);
        }
    }
    return first;
}

// The vertices on the crossed edges of row (y, z) this block makes: welded,
// those it owns (own rows, x < BLOCK_X); not welded, every one its cells touch.
void writeRowVertices(uint team, ivec3 origin, uint y, uint z)
{
    uint row = rowIndex(team, y, z);
    if (WELD && !ownRow(y, z))
        return;
    uint end = WELD ? 0u : uint(crossedEnd[row]);
    for (uint axis = 0u; axis < 3u; ++axis) {
        for (uint bits = crossedAt(row, axis); bits != 0u; bits &= bits - 1u) {
            uvec3 c = uvec3(findLSB(bits), y, z);
            writeVertex(team, origin, c, axis, vertexOf(team, c, axis));
        }
        if ((end & (1u << axis)) != 0u) {
            uvec3 c = uvec3(BLOCK_X, y, z);
            writeVertex(team, origin, c, axis, vertexOf(team, c, axis));
        }
    }
}

// One atomic a subgroup: this invocation's first of `count` elements
// reserved from `reserved`, the subgroup's old value of the counter.
uint subgroupShare(uint count, uint reserved) { return subgroupMax(reserved) + subgroupExclusiveAdd(count); }

void main()
{
    uint tid = gl_LocalInvocationIndex;
    uint team = min(tid / ROW_LANES, TEAMS - 1u);
    uint lane = tid - team * ROW_LANES; // past ROW_LANES: an invocation of the rounding, idle
    uint slot = (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * TEAMS + team;
    bool listed = lane < ROW_LANES && slot < listedCount();
    uvec3 block = listed ? blockCoordinates(activeBlocks[slot]) : uvec3(0u);
    ivec3 origin = ivec3(block * blockSize());

    if (listed) {
        if (WELD)
            loadGroupStarts(team, lane, block);
        if (lane == 0u) {
            teamInterior[team] = 0u;
            teamTriangles[team] = 0u;
        }
        loadBlockRows(team, lane, origin);
    }
    barrier();

    // Each row's crossed edges and (welded) group bits and interior ranks;
    // its cells' triangles, counted.
    uint laneTriangles = 0u, laneVertices = 0u;
    for (uint r = lane; listed && r < ROW_COUNT; r += ROW_LANES) {
        uvec2 yz = rowOfTask(r);
        uint y = yz.x, z = yz.y;
        uvec4 crossed = markRow(team, origin, y, z);
        uint row = rowIndex(team, y, z);
        if (WELD) {
            uint interior = markAxisGroups(team, y, z, 0u, crossed.x, false) +
                            markAxisGroups(team, y, z, 1u, crossed.y, (crossed.w & 2u) != 0u) +
                            markAxisGroups(team, y, z, 2u, crossed.z, (crossed.w & 4u) != 0u);
            if (interior > 0u)
                setRowFirst(row, atomicAdd(teamInterior[team], interior));
        } else {
            setRowFirst(row, laneVertices);
            laneVertices += bitCount(crossed.x) + bitCount(crossed.y) + bitCount(crossed.z) + bitCount(crossed.w);
        }
        if (ownRow(y, z)) {
            uint triangles = rowTriangleCount(team, origin, y, z);
            laneTriangles += triangles;
            if (WELD && triangles > 0u)
                atomicAdd(teamTriangles[team], triangles);
        }
    }
    // Subgroup-uniform from here to the barrier: every invocation takes part.
    uint faceTotal = subgroupAdd(laneTriangles);
    uint firstFace = subgroupElect() && faceTotal > 0u ? atomicAdd(meshFaceCount, faceTotal) : 0u;
    uint laneFirstTriangle = subgroupShare(laneTriangles, firstFace);
    if (!WELD) {
        uint vertexTotal = subgroupAdd(laneVertices);
        uint firstVertex = subgroupElect() && vertexTotal > 0u ? atomicAdd(meshVertexCount, vertexTotal) : 0u;
        uint laneFirstVertex = subgroupShare(laneVertices, firstVertex);
        for (uint r = lane; listed && r < ROW_COUNT; r += ROW_LANES) {
            uvec2 yz = rowOfTask(r);
            uint row = rowIndex(team, yz.x, yz.y);
            setRowFirst(row, rowFirstAt(row) + laneFirstVertex);
        }
    }
    barrier(); // the masks and row ranks, and the teams' counts

    if (WELD) {
        // For benchmarks: listed blocks that make vertices (own edges) or triangles.
        uint ownVertices = firstVertexOf(team, 0u, GROUP_INTERIOR) - firstVertexOf(team, 0u, 0u) + teamInterior[team];
        bool geometry = listed && lane == 0u && (ownVertices > 0u || teamTriangles[team] > 0u);
        uint blocks = subgroupAdd(geometry ? 1u : 0u);
        if (subgroupElect() && blocks > 0u)
            atomicAdd(meshBlockCount, blocks);
    }
    if (WELD) {
        for (uint r = lane; listed && r < ROW_COUNT; r += ROW_LANES) {
            uvec2 yz = rowOfTask(r);
            numberRow(team, yz.x, yz.y);
        }
        barrier(); // the row codes
    }
    // Welded, only own rows write vertices and triangles.
    for (uint r = lane; listed && r < (WELD ? OWN_ROW_COUNT : ROW_COUNT); r += ROW_LANES) {
        uvec2 yz = rowOfTask(r);
        uint y = yz.x, z = yz.y;
        writeRowVertices(team, origin, y, z);
        if (ownRow(y, z))
            laneFirstTriangle = writeRowTriangles(team, origin, y, z, laneFirstTriangle);
    }
}
