#version 460
// Pass 2 (paper section 4.2): the list of blocks the isosurface crosses. One
// invocation per block. The ranges cover each block's cells (its voxels and
// the one-voxel overlap on its upper faces, min_max*.comp with CELL_RANGES),
// so a block is listed exactly when its cells hold an inside sample (>= iso)
// and an outside one (< iso, or not finite): every listed block makes
// geometry, but for the rare one kept by the ranges' outward rounding.
//
// A block's place in the list is its rank among the active blocks of its
// workgroup, counted with popcounts over a bitmask in block-index order, plus
// one atomic per workgroup. The order matters for welding: the list words
// (listedWords) then give any block's slot from 8 bytes per 32 blocks.
// WORKGROUP_SIZE is a multiple of 32 (block_extractor.cpp), so a workgroup
// owns whole words.
#extension GL_GOOGLE_include_directive : require

#include "block_common.glsl"

layout(local_size_x_id = 1) in;

const uint WORDS = WORKGROUP_SIZE / 32u;
shared uint activeBits[WORDS];
shared uint workgroupBase;

void main()
{
    uint blockCount = params.blockCounts.x * params.blockCounts.y * params.blockCounts.z;
    uint tid = gl_LocalInvocationIndex;
    uint firstBlock = (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * WORKGROUP_SIZE;
    uint blockIndex = firstBlock + tid;
    if (tid < WORDS)
        activeBits[tid] = 0u;
    barrier();
    bool isActive = false;
    if (blockIndex < blockCount) {
        vec2 range = blockRangeAt(blockIndex);
        isActive = range.y >= params.iso && range.x < params.iso;
    }
    if (isActive)
        atomicOr(activeBits[tid / 32u], 1u << (tid % 32u));
    barrier();

    uint bit = 1u << (tid % 32u);
    uint rank = bitCount(activeBits[tid / 32u] & (bit - 1u)); // active blocks before this one
    uint total = 0u;
    for (uint w = 0u; w < WORDS; ++w) {
        uint count = bitCount(activeBits[w]);
        rank += w < tid / 32u ? count : 0u;
        total += count;
    }
    if (tid == 0u)
        workgroupBase = total > 0u ? atomicAdd(activeCount, total) : 0u;
    barrier();
    uint slot = workgroupBase + rank;
    // Blocks past the list's capacity are left out (prepare_dispatch raises
    // the overflow flag); those listed are a prefix of the active ones in
    // block order, so the words' ranks stay slots.
    bool listed = isActive && slot < params.activeCapacity;
    if (listed)
        activeBlocks[slot] = blockIndex;
    if (WELD && tid % 32u == 0u && blockIndex < blockCount) {
        // This word's first active block is at `slot`; keep the bits of those that fit.
        uint bits = activeBits[tid / 32u];
        uint fit = slot < params.activeCapacity ? params.activeCapacity - slot : 0u;
        while (uint(bitCount(bits)) > fit)
            bits &= ~(1u << uint(findMSB(bits)));
        listedWords[blockIndex / 32u] = uvec2(bits, slot);
    }
}
