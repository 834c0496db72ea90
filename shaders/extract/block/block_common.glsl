// What every pass of the block extractor shares: the specialization
// constants, the parameters, and how a sample of the field is read.
// Parallel Marching Blocks (Liu et al.), section 4: the volume is cut into
// voxel blocks of BLOCK_X × BLOCK_Y × BLOCK_Z voxels; a block owns the cells
// and the grid edges that start at its voxels.

layout(constant_id = 0) const uint SUBGROUP_SIZE = 32;
layout(constant_id = 1) const uint WORKGROUP_SIZE = 128;
layout(constant_id = 2) const uint BLOCK_X = 8;
layout(constant_id = 3) const uint BLOCK_Y = 4;
layout(constant_id = 4) const uint BLOCK_Z = 4;
// 0: the volume image; 1: the Cayley surface evaluated in the shader (the
// paper's Table 2 benchmark, for grids too large to store).
layout(constant_id = 5) const uint FIELD = 0;
// false: each block makes its own copy of the vertices on its far faces, as
// the paper does; true: one vertex per intersected grid edge.
layout(constant_id = 6) const bool WELD = true;

layout(push_constant) uniform Parameters {
    ivec3 dims;
    float iso;
    uvec3 blockCounts;
    float valueScale;    // image texel -> data units
    vec3 origin;
    uint roundValues;    // 1: integer data in a normalized image; round back to the exact integer
    vec3 spacing;
    uint activeCapacity; // entries of the active-block list
    uint firstBlockLayer; // min_max_words: the z-layer of blocks where the bound volume range starts
    uint rowWords;        // min_max_words: 32-bit words per x-row of the volume
    uint scalarType;      // min_max_words: volume_buffer.glsl's type codes
    uint unused;
} params;

// One descriptor layout for every pass of the method (each uses a subset), so
// the C++ side binds one list.
layout(set = 0, binding = 0) uniform sampler3D volumeTexture;
layout(set = 0, binding = 1, std430) buffer MinMax { uint blockMinMax[]; };       // per block: two halves
layout(set = 0, binding = 2, std430) buffer ActiveBlocks { uint activeBlocks[]; }; // per listed block: block index
layout(set = 0, binding = 3, std430) buffer BlockSlots { uint blockSlot[]; };     // per block: list slot or kNoSlot
// The list's length and the indirect dispatch of the passes over it; then
// (welded) how many listed blocks make vertices or triangles, and the
// dispatch of the triangle pass over those.
layout(set = 0, binding = 4, std430) buffer State {
    uint activeCount; uint dispatchX, dispatchY, dispatchZ;
    uint meshBlockCount; uint meshDispatchX, meshDispatchY, meshDispatchZ;
};
// Per listed block (welded meshes): its first vertex and where each of its
// edge groups starts (block_edges.glsl).
layout(set = 0, binding = 5, std430) buffer SlotVertices { uvec4 slotVertices[]; };
#define CASE_TABLE_BINDING 6
#include "case_table.glsl"
// Welded: the listed blocks that make vertices or triangles, as (list slot,
// first triangle), so the triangle pass skips the rest and needs no atomics.
layout(set = 0, binding = 7, std430) buffer MeshBlocks { uvec2 meshBlocks[]; };
#define MESH_VERTICES_BINDING 8
#define MESH_INDICES_BINDING 9
#define MESH_COUNTERS_BINDING 10
#include "mesh_output.glsl"
// The volume's bytes as 32-bit words (a range of z-slabs of it), for min_max_words.
layout(set = 0, binding = 11, std430) readonly buffer VolumeWords { uint volumeWords[]; };

const uint kNoSlot = 0xFFFFFFFFu;

bool isFiniteValue(float v) { return (floatBitsToUint(v) & 0x7F800000u) != 0x7F800000u; }

// The CPU reference's rule: a sample is inside when finite and >= iso.
bool isInside(float v) { return isFiniteValue(v) && v >= params.iso; }

float cayley(vec3 x) { return 1.0 - 16.0 * x.x * x.y * x.z - 4.0 * dot(x, x); }

// The sample at grid point p, in the data's own units, exactly as the CPU
// reference sees it: unorm/snorm texels times their scale are integers again
// after rounding.
float fieldAt(ivec3 p)
{
    if (FIELD == 1u)
        return cayley(params.origin + vec3(p) * params.spacing);
    float v = texelFetch(volumeTexture, p, 0).r * params.valueScale;
    return params.roundValues != 0u ? round(v) : v;
}

// The field between grid points (index coordinates), for normals: hardware
// trilinear filtering on the image, the function itself for Cayley.
float fieldBetween(vec3 p)
{
    if (FIELD == 1u)
        return cayley(params.origin + p * params.spacing);
    return texture(volumeTexture, (p + 0.5) / vec3(params.dims)).r * params.valueScale;
}

uvec3 blockSize() { return uvec3(BLOCK_X, BLOCK_Y, BLOCK_Z); }

uvec3 blockCoordinates(uint blockIndex)
{
    uvec3 counts = params.blockCounts;
    return uvec3(blockIndex % counts.x, (blockIndex / counts.x) % counts.y, blockIndex / (counts.x * counts.y));
}

uint blockIndexOf(uvec3 b) { return b.x + params.blockCounts.x * (b.y + params.blockCounts.y * b.z); }
