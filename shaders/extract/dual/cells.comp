#version 460
// Dual Marching Cubes, pass 1 (paper, "DMC quadrilateral mesh", first
// kernel): per cell (four cells along x an invocation) the cell's MC polygons, a vertex
// on the trilinear isosurface for each, with the normal interpolated from
// the corners' central-difference gradients, and stores the vertex's number
// in the edge hash table for every interior grid edge its polygon crosses,
// in the slot of the quad that keeps it oriented.
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_shuffle : require

layout(constant_id = 0) const uint WORKGROUP_SIZE = 64;
layout(constant_id = 1) const uint COLORS = 0; // 1: write each vertex's colour
layout(local_size_x_id = 0) in;

#define VOLUME_BINDING 0
#define TABLE_KEYS_BINDING 1
#define TABLE_QUADS_BINDING 2
#define TABLE_ACCESS
#define MESH_NO_INDICES
#define MESH_VERTICES_BINDING 3
#define MESH_COUNTERS_BINDING 4
#define DUAL_COUNTERS_BINDING 5
#include "mesh_output.glsl"
#include "dual_common.glsl"
#include "point_grid.glsl"
#include "dual_polygons.glsl"
#include "dual_vertex.glsl"

// The paper's vertex colouring: a vertex takes its cell's colour, one bit
// per axis of the cell's index (8 colours; vertices of one colour are never
// in neighbouring cells).
layout(set = 0, binding = 6, std430) writeonly buffer VertexColors { uint vertexColors[]; };

const uint MAX_PROBES = 64u;

void storeInTable(uint key, uint slot, uint vertex)
{
    uint h = hashKey(key);
    for (uint i = 0u; i < MAX_PROBES; ++i) {
        uint bucket = (h + i * (i + 1u) / 2u) & (grid.tableBuckets - 1u);
        uint previous = atomicCompSwap(tableKeys[bucket], NO_ENTRY, key);
        if (previous == NO_ENTRY)
            atomicAdd(edgesStored, 1u);
        if (previous == NO_ENTRY || previous == key) {
            tableQuads[bucket][slot] = vertex;
            return;
        }
    }
    atomicAdd(insertsFailed, 1u);
    meshOverflow = 1u;
}

// The slot of cell `cell` in the quad of the grid edge `e` of that cell.
// Around the edge (axis a, other axes b < c) the four cells, offset by
// (-u, -v) on (b, c), in the cycle (0,0), (1,0), (1,1), (0,1) run
// counter-clockwise around e_b x e_c (+x, -y, +z for a = x, y, z); the cycle
// is reversed where that would face toward larger values, since faces face
// out of the inside region (mesh/gpu_mesh.h, as the triangle methods').
uint quadSlot(uint e, bool lowerEndInside)
{
    uint uv = e & 3u;
    uint slot = uv == 2u ? 3u : (uv == 3u ? 2u : uv);
    bool facesPositive = (e >> 2) != 1u;
    return facesPositive == lowerEndInside ? slot : (4u - slot) & 3u;
}

// A cell with geometry: its vertices (numbers from `base`) and its table stores.
void emitCell(uvec3 q, float f[8], uint insideMask, CellPolygons polygons, uint base)
{
    bool finite = true;
    for (uint c = 0u; c < 8u; ++c)
        finite = finite && isFiniteValue(f[c]);
    vec3 gradients[8];
    for (uint c = 0u; c < 8u; ++c)
        gradients[c] = gridGradient(q + uvec3(c & 1u, (c >> 1) & 1u, c >> 2));
    uint start = 0u;
    for (uint k = 0u; k < polygons.count; ++k) {
        bool fellBack;
        PolygonShape shape;
        vec3 local = representative(f, polygons, k, start, finite, fellBack, shape);
        if (fellBack)
            atomicAdd(fallbackVertices, 1u);
        vec3 g = mix(mix(mix(gradients[0], gradients[1], local.x), mix(gradients[2], gradients[3], local.x), local.y),
                     mix(mix(gradients[4], gradients[5], local.x), mix(gradients[6], gradients[7], local.x), local.y),
                     local.z);
        vec3 normal = -g;
        float len = length(normal);
        // Newell's vector of a loop points toward larger values (the loop
        // keeps the inside on its left): its opposite where the gradient vanishes.
        normal = len > 0.0 && !isinf(len) && !isnan(len) ? normal / len : -normalize(shape.area);
        uint vertex = base + k;
        writeMeshVertex(vertex, gridOrigin() + (vec3(q) + local) * gridSpacing(), normal);
        if (COLORS != 0u && vertex < grid.extraVertexCapacity)
            vertexColors[vertex] = (q.x & 1u) | ((q.y & 1u) << 1) | ((q.z & 1u) << 2);
        start += polygonSize(polygons, k);
    }

    // Quads: each interior crossed edge of the cell gets this cell's vertex
    // of the polygon that crosses it (boundary edges, with fewer than four
    // cells, make no quad and are not stored).
    for (uint e = 0u; e < 12u; ++e) {
        uint axis = e >> 2;
        uint otherLow = axis == 0u ? 1u : 0u;
        uint otherHigh = axis == 2u ? 1u : 2u;
        uint u = e & 1u, v = (e >> 1) & 1u;
        uint c0 = (u << otherLow) | (v << otherHigh);
        bool lowerInside = (insideMask >> c0 & 1u) != 0u;
        if (lowerInside == ((insideMask >> (c0 | (1u << axis)) & 1u) != 0u))
            continue;
        uvec3 p = q + uvec3(c0 & 1u, (c0 >> 1) & 1u, c0 >> 2);
        uvec3 dims = gridDims();
        if (p[otherLow] == 0u || p[otherLow] + 1u >= dims[otherLow] || p[otherHigh] == 0u ||
            p[otherHigh] + 1u >= dims[otherHigh])
            continue;
        storeInTable(edgeKey(p, axis), quadSlot(e, lowerInside), base + polygons.polygonOf[e]);
    }
}

// An invocation classifies CELLS consecutive cells along x: their 4 rows of
// CELLS + 1 samples are loaded once (uint8 rows that start on a word: two
// words a row), and a run without a crossing, the common case, costs those
// loads and a compare. The cells with geometry of a whole subgroup are then
// dealt out to its invocations, one each in turn, so the costly part (the
// polygons, the vertex search, the table stores) runs on full subgroups
// however the surface falls.
const uint CELLS = 4u;

// Sample x0 + i of the row (y, z), for i <= CELLS (clamped to the grid).
void loadRow(uint x0, uint y, uint z, out float row[CELLS + 1u])
{
    uint index = x0 + grid.nx * (y + grid.ny * z);
    if (grid.scalarType == SCALAR_UINT8 && (index & 3u) == 0u && x0 + CELLS < grid.nx) {
        uint word = volumeWords[index >> 2];
        for (uint i = 0u; i < CELLS; ++i)
            row[i] = float(bitfieldExtract(word, int(8u * i), 8));
        row[CELLS] = float(volumeWords[(index >> 2) + 1u] & 0xFFu);
        return;
    }
    for (uint i = 0u; i <= CELLS; ++i)
        row[i] = sampleAt(uvec3(min(x0 + i, grid.nx - 1u), y, z));
}

// The first cell of a run.
uvec3 runCell(uint run, uint runsX, uvec3 cells)
{
    return uvec3((run % runsX) * CELLS, (run / runsX) % cells.y, run / (runsX * cells.y));
}

// Bits i of the run's cells with geometry (some corners inside, some not).
uint cellsWithGeometry(uint run, uint runsX, uvec3 cells)
{
    if (run >= runsX * cells.y * cells.z)
        return 0u;
    uvec3 first = runCell(run, runsX, cells);
    // Rows r = dy + 2 dz: the cell corners c with (c >> 1) = r.
    uint insideBits = 0u; // bit r * (CELLS + 1) + i
    for (uint r = 0u; r < 4u; ++r) {
        float row[CELLS + 1u];
        loadRow(first.x, first.y + (r & 1u), first.z + (r >> 1), row);
        for (uint i = 0u; i <= CELLS; ++i)
            insideBits |= isInside(row[i]) ? 1u << (r * (CELLS + 1u) + i) : 0u;
    }
    uint cornerBits = 3u | (3u << (CELLS + 1u)) | (3u << (2u * (CELLS + 1u))) | (3u << (3u * (CELLS + 1u)));
    uint result = 0u;
    for (uint i = 0u; i < CELLS; ++i) {
        uint corners = insideBits & (cornerBits << i);
        if (first.x + i < cells.x && corners != 0u && corners != (cornerBits << i))
            result |= 1u << i;
    }
    return result;
}

void main()
{
    uint run = flatWorkgroupIndex() * WORKGROUP_SIZE + gl_LocalInvocationIndex;
    uvec3 cells = cellCounts();
    uint runsX = (cells.x + CELLS - 1u) / CELLS;
    uint mine = cellsWithGeometry(run, runsX, cells);
    if (!subgroupAny(mine != 0u))
        return; // the whole subgroup: the rest runs in uniform control flow
    uint count = bitCount(mine);
    uint end = subgroupInclusiveAdd(count); // this invocation's cells are jobs end - count .. end - 1
    uint total = subgroupAdd(count);
    for (uint turn = 0u; turn * gl_SubgroupSize < total; ++turn) {
        uint job = turn * gl_SubgroupSize + gl_SubgroupInvocationID;
        // The invocation holding the job: the first whose end passes it (a
        // binary search over the subgroup, the same steps in every invocation).
        uint low = 0u, high = gl_SubgroupSize - 1u;
        for (uint step = 1u; step < gl_SubgroupSize; step <<= 1) {
            uint middle = (low + high) >> 1;
            if (subgroupShuffle(end, middle) > job)
                high = middle;
            else
                low = min(middle + 1u, high);
        }
        uint sourceRun = subgroupShuffle(run, low);
        uint sourceCells = subgroupShuffle(mine, low);
        uint sourceFirstJob = subgroupShuffle(end - count, low);
        bool hasJob = job < total;
        // The (job - sourceFirstJob)-th set bit of the source's cells.
        uint k = job - sourceFirstJob;
        for (uint i = 0u; i < k && hasJob; ++i)
            sourceCells &= sourceCells - 1u;
        uvec3 q = runCell(sourceRun, runsX, cells);
        q.x += hasJob ? uint(findLSB(sourceCells)) : 0u;

        float f[8];
        uint insideMask = 0u;
        CellPolygons polygons;
        polygons.count = 0u;
        if (hasJob) {
            for (uint c = 0u; c < 8u; ++c) {
                f[c] = sampleAt(q + uvec3(c & 1u, (c >> 1) & 1u, c >> 2));
                insideMask |= isInside(f[c]) ? 1u << c : 0u;
            }
            polygons = cellPolygons(f);
        }
        // Vertex numbers: one atomic per subgroup.
        uint first = subgroupExclusiveAdd(polygons.count);
        uint sum = subgroupAdd(polygons.count);
        uint base = 0u;
        if (subgroupElect())
            base = atomicAdd(meshVertexCount, sum);
        base = subgroupBroadcastFirst(base) + first;
        if (hasJob)
            emitCell(q, f, insideMask, polygons, base);
    }
}
