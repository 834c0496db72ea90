#version 460
// Pass 2 (paper section 4.2): the list of blocks the isosurface crosses, an
// invocation per block of each run (below). The ranges cover each block's
// cells (its voxels and the one-voxel overlap on its upper faces,
// min_max*.comp with CELL_RANGES), so a block is listed exactly when its cells hold an inside sample (>= iso)
// and an outside one (< iso, or not finite): every listed block makes
// geometry, but for the rare one kept by the ranges' outward rounding.
//
// A block's place in the list is its rank among the active blocks of its
// workgroup, counted with popcounts over a bitmask in block-index order, plus
// one atomic per workgroup. The order matters for welding: the list words
// (listedWords) then give any block's slot from 8 bytes per 32 blocks.
// WORKGROUP_SIZE is a multiple of 32 (block_extractor.cpp), so a workgroup
// owns whole words. A workgroup takes COMPACT_ROUNDS runs of WORKGROUP_SIZE
// blocks, so that there are that many times fewer atomics on the list's
// length (32,768 with one run for 8×4×4 blocks at 1024³).
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require

// The bindings this pass writes (block_common.glsl).
#define ACTIVE_BLOCKS_ACCESS
#define LISTED_WORDS_ACCESS
#define STATE_ACCESS
#include "block_common.glsl"
#include "subgroup_scan.glsl"

layout(local_size_x_id = 1) in;

layout(constant_id = 18) const uint COMPACT_ROUNDS = 8;

const uint RUN_WORDS = WORKGROUP_SIZE / 32u;
const uint WORDS = RUN_WORDS * COMPACT_ROUNDS;
shared uint activeBits[WORDS];
shared uint wordFirstSlot[WORDS]; // within the workgroup's share of the list
shared uint workgroupBase;

void main()
{
    uint blockCount = params.blockCounts.x * params.blockCounts.y * params.blockCounts.z;
    uint tid = gl_LocalInvocationIndex;
    uint firstBlock = (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * WORKGROUP_SIZE * COMPACT_ROUNDS;
    for (uint w = tid; w < WORDS; w += WORKGROUP_SIZE)
        activeBits[w] = 0u;
    barrier();
    uint bit = 1u << (tid % 32u);
    for (uint round = 0u; round < COMPACT_ROUNDS; ++round) {
        uint blockIndex = firstBlock + round * WORKGROUP_SIZE + tid;
        if (blockIndex < blockCount) {
            vec2 range = blockRangeAt(blockIndex);
            if (range.y >= params.iso && range.x < params.iso)
                atomicOr(activeBits[round * RUN_WORDS + tid / 32u], bit);
        }
    }
    barrier();

    uint total = 0u;
    for (uint first = 0u; first < WORDS; first += WORKGROUP_SIZE) {
        uint w = first + tid;
        uint chunkTotal;
        uint offset = workgroupExclusiveAdd(w < WORDS ? bitCount(activeBits[w]) : 0u, chunkTotal);
        if (w < WORDS)
            wordFirstSlot[w] = total + offset;
        total += chunkTotal;
    }
    if (tid == 0u)
        workgroupBase = total > 0u ? atomicAdd(activeCount, total) : 0u;
    barrier();

    for (uint round = 0u; round < COMPACT_ROUNDS; ++round) {
        uint blockIndex = firstBlock + round * WORKGROUP_SIZE + tid;
        uint w = round * RUN_WORDS + tid / 32u;
        uint bits = activeBits[w];
        uint wordSlot = workgroupBase + wordFirstSlot[w];
        uint slot = wordSlot + bitCount(bits & (bit - 1u));
        // Blocks past the list's capacity are left out (prepare_dispatch
        // raises the overflow flag); those listed are a prefix of the active
        // ones in each word, so the words' ranks stay slots.
        if ((bits & bit) != 0u && slot < params.activeCapacity)
            activeBlocks[slot] = blockIndex;
        if (WELD && tid % 32u == 0u && blockIndex < blockCount) {
            uint fit = wordSlot < params.activeCapacity ? params.activeCapacity - wordSlot : 0u;
            while (uint(bitCount(bits)) > fit)
                bits &= ~(1u << uint(findMSB(bits)));
            listedWords[blockIndex / 32u] = uvec2(bits, wordSlot);
        }
    }
}
