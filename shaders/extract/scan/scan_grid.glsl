// What the scan method's count, list and generate passes share: the grid and
// slab they work on, samples, the inside test, and the vertex on a crossed
// edge (computed exactly as the CPU reference,
// engine/extract/cpu/marching_cubes.cpp).
//
// Points, not cells, are the unit of work: point (x, y, z) is the lowest
// corner of cell (x, y, z) when that cell exists, and owns the grid edges
// leaving it along +x, +y and +z, so each intersected edge gets exactly one
// vertex (the welded output), as in the CPU reference.
//
// Slabs: a slab covers the cells of layers z0 .. z0 + planes - 2 and the
// point planes z0 .. z0 + planes - 1 (one plane shared with the next slab).
// It owns the z-edges of its cells, and the x- and y-edges of its planes
// except the bottom one, which the slab below owns (the first slab owns its
// bottom plane too). The owner of a shared plane writes the vertex numbers of
// its x/y edges to a seam buffer that the next slab reads.
//
// The occupied-point list (classify_spans.glsl writes it, generate reads it):
// one uvec4 per point that emits a vertex or a triangle, in point order:
// (slab-local point index, vertex offset, triangle offset, case | owned
// crossed edges << 8); rowStarts[r] is the list index of row r's first entry
// (row r = y + ny * (z - z0)), rowStarts[rows] the list's length.
//
// Before including: VOLUME_BINDING and the constant WORKGROUP_SIZE.

layout(set = 0, binding = VOLUME_BINDING, std430) readonly buffer VolumeWords { uint volumeWords[]; };
#include "volume_buffer.glsl"

layout(push_constant) uniform Grid {
    uint nx, ny, nz;
    uint z0;        // the slab's first point plane (and cell layer)
    uint planes;    // point planes in the slab: its cell layers + 1
    uint slabFlags; // SLAB_FIRST | SLAB_LAST
    uint scalarType;
    float iso;
    float originX, originY, originZ;
    float spacingX, spacingY, spacingZ;
    uint listCapacity; // entries the occupied-point list holds
    // The volume is bound from a little below plane volumeFirstPlane (the
    // slab's planes and one on either side: slab_plan.h): sample indices
    // count from there, so they stay 32-bit and the binding stays small.
    uint volumeFirstPlane;
    uint volumeFirstSample; // samples bound before plane volumeFirstPlane's first
    uint columnTiles;       // count.comp: tiles a workgroup walks up
} grid;

const uint SLAB_FIRST = 1u;
const uint SLAB_LAST = 2u;

// The point of a slab-local index (x fastest, then y, then z).
uvec3 slabPoint(uint local)
{
    uint plane = grid.nx * grid.ny;
    uint inPlane = local % plane;
    return uvec3(inPlane % grid.nx, inPlane / grid.nx, grid.z0 + local / plane);
}

uint slabIndex(uvec3 p) { return p.x + grid.nx * (p.y + grid.ny * (p.z - grid.z0)); }

// Workgroups are dispatched in 2D (ComputeProgram::dispatchLine).
uint flatWorkgroupIndex() { return gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x; }

uint invocationIndex() { return flatWorkgroupIndex() * WORKGROUP_SIZE + gl_LocalInvocationIndex; }

// Index into the bound planes of the sample at point p.
uint boundSampleIndex(uvec3 p) { return grid.volumeFirstSample + p.x + grid.nx * (p.y + grid.ny * (p.z - grid.volumeFirstPlane)); }

float sampleAt(uvec3 p) { return volumeSampleAt(boundSampleIndex(p), grid.scalarType); }

#include "point_grid.glsl"
