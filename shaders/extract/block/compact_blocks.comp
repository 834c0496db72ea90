#version 460
// Pass 2 (paper section 4.2): the list of blocks the isosurface crosses. The
// ranges cover each block's cells (its voxels and the one-voxel overlap on
// its upper faces, min_max*.comp with CELL_RANGES), so a block is listed
// exactly when its cells hold an inside sample (>= iso) and an outside one
// (< iso, or not finite): every listed block makes geometry, but for the
// rare one kept by the ranges' outward rounding.
//
// A block's place in the list is its rank among the active blocks of its
// 32-block word, counted with popcounts over a bitmask in block-index order,
// plus the word's offset in the workgroup (a scan), plus one atomic per
// workgroup. The order matters for welding: the list words (listedWords)
// then give any block's slot from 8 bytes per 32 blocks. Two ways to build
// the words (block_extractor.cpp picks, docs/BENCHMARKS.md has the figures):
//   WORD_INVOCATIONS (8-bit ranges in block order): an invocation per word
//   reads its word's 32 ranges (64 consecutive bytes) and builds its
//   bitmask alone, without shared atomics or a division per block.
//   Otherwise an invocation per block, COMPACT_ROUNDS runs of WORKGROUP_SIZE
//   blocks a workgroup (a multiple of 32, so it owns whole words), the bits
//   set by shared atomics: for 4-byte ranges the faster of the two measured.
//
// The workgroup that finishes last also does what a pass of its own did
// after this one: it turns the list's length into the indirect dispatches
// of the passes after it, raises the mesh's overflow flag when the list could
// not hold every active block, and sets the state's counters back to zero
// for the next frame (a transfer pass cleared them before); for the block
// method also the mesh's counts (RESET_MESH_COUNTERS).
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_EXT_control_flow_attributes : require

// The bindings this pass writes (block_common.glsl).
#define ACTIVE_BLOCKS_ACCESS
#define LISTED_WORDS_ACCESS
#define STATE_ACCESS
#define MESH_COUNTERS_WRITTEN
#include "block_common.glsl"
#include "subgroup_scan.glsl"

layout(local_size_x_id = 1) in;

// The device's maxComputeWorkGroupCount[0] (compact_blocks.cpp).
layout(constant_id = 19) const uint MAX_GROUPS_X = 65535u;
// From this many listed blocks on, the row triangle pass, else the cell pass
// (block_extractor.cpp says why): rows hold more blocks in flight, each for
// longer, which a list shorter than the GPU holds does not use.
layout(constant_id = 24) const uint ROWS_FROM_LISTED = 0xFFFFFFFFu;
// The block method: the last workgroup also resets the mesh's counts and
// draw arguments (no pass of the method touches them before), in place of
// a transfer pass of their own.
layout(constant_id = 25) const bool RESET_MESH_COUNTERS = false;

// Runs of WORKGROUP_SIZE blocks a workgroup lists, an invocation per block.
layout(constant_id = 18) const uint COMPACT_ROUNDS = 8;
// An invocation per 32-block word, for 8-bit ranges whose rows of blocks
// fill whole words (an even count along x), so that they lie in block order.
layout(constant_id = 26) const bool WORD_INVOCATIONS = false;

const uint RUN_WORDS = WORKGROUP_SIZE / 32u;
const uint BLOCK_WORDS = RUN_WORDS * COMPACT_ROUNDS; // words a workgroup lists, an invocation per block
shared uint activeBits[WORD_INVOCATIONS ? 1u : BLOCK_WORDS];
shared uint wordFirstSlot[WORD_INVOCATIONS ? 1u : BLOCK_WORDS]; // within the workgroup's share of the list
shared uint workgroupBase;

bool straddles(vec2 range) { return range.y >= params.iso && range.x < params.iso; }

// WORD_INVOCATIONS: bit i is set where block 32 w + i is active (and in the
// volume). Word first / 2 + i holds the ranges of blocks first + 2i and
// first + 2i + 1.
uint activeBitsOfWord(uint w, uint blockCount)
{
    uint first = 32u * w;
    uint bits = 0u;
    [[unroll]] for (uint i = 0u; i < 16u; ++i) {
        uint block = first + 2u * i;
        uint pair = block < blockCount ? blockMinMax[block / 2u] : 0x00FF00FFu; // past the volume: empty ranges
        vec2 low = vec2(pair & 0xFFu, (pair >> 8) & 0xFFu);
        vec2 high = vec2((pair >> 16) & 0xFFu, pair >> 24);
        bits |= (straddles(low) ? 1u : 0u) << (2u * i);
        bits |= (straddles(high) && block + 1u < blockCount ? 1u : 0u) << (2u * i + 1u);
    }
    return bits;
}

uvec3 dispatchFor(uint workgroups)
{
    return uvec3(min(workgroups, MAX_GROUPS_X), (workgroups + MAX_GROUPS_X - 1u) / MAX_GROUPS_X, 1u);
}

// The last workgroup, once every other has added its blocks: the list's
// length and the dispatches of the vertex-count pass and of the triangle
// pass picked by that length (the other's empty), folded into 2D where a
// count passes the device's limit along x.
void finishList()
{
    uint activeBlockCount = atomicExchange(activeCounter, 0u);
    compactGroupsDone = 0u;
    activeCount = activeBlockCount;
    meshBlockCount = 0u;
    if (RESET_MESH_COUNTERS) {
        drawIndexCount = 0u;
        drawInstanceCount = 0u;
        drawFirstIndex = 0u;
        drawVertexOffset = 0;
        drawFirstInstance = 0u;
        meshVertexCount = 0u;
        meshFaceCount = 0u;
        meshOverflow = 0u;
    }
    uint listed = min(activeBlockCount, params.activeCapacity);
    bool rows = listed >= ROWS_FROM_LISTED;
    uvec3 d = dispatchFor(rows ? 0u : listed);
    dispatchX = d.x;
    dispatchY = d.y;
    dispatchZ = d.z;
    uvec3 c = dispatchFor((listed + COUNT_BLOCKS_PER_GROUP - 1u) / COUNT_BLOCKS_PER_GROUP);
    countDispatchX = c.x;
    countDispatchY = c.y;
    countDispatchZ = c.z;
    d = rows ? c : uvec3(0u, 1u, 1u);
    rowDispatchX = d.x;
    rowDispatchY = d.y;
    rowDispatchZ = d.z;
    if (activeBlockCount > params.activeCapacity)
        meshOverflow = 1u;
}

// This workgroup's `total` listed blocks: its first slot, from one atomic;
// the workgroup that finishes last writes the dispatches (finishList).
void reserve(uint total)
{
    workgroupBase = total > 0u ? atomicAdd(activeCounter, total) : 0u;
    // This workgroup's count is in before it says it is done.
    memoryBarrierBuffer();
    uint groups = gl_NumWorkGroups.x * gl_NumWorkGroups.y * gl_NumWorkGroups.z;
    if (atomicAdd(compactGroupsDone, 1u) == groups - 1u) {
        memoryBarrierBuffer();
        finishList();
    }
}

// Blocks past the list's capacity are left out (the last workgroup raises
// the overflow flag); those listed are a prefix of the active ones in each
// word, so the words' ranks stay slots. Welded: word w's bits and slot.
void storeListedWord(uint w, uint bits, uint wordSlot)
{
    uint fit = wordSlot < params.activeCapacity ? params.activeCapacity - wordSlot : 0u;
    while (uint(bitCount(bits)) > fit)
        bits &= ~(1u << uint(findMSB(bits)));
    listedWords[w] = uvec2(bits, wordSlot);
}

// WORD_INVOCATIONS: an invocation per word.
void listByWords(uint group, uint blockCount)
{
    uint wordCount = (blockCount + 31u) / 32u;
    uint tid = gl_LocalInvocationIndex;
    uint w = group * WORKGROUP_SIZE + tid;
    uint bits = w < wordCount ? activeBitsOfWord(w, blockCount) : 0u;
    uint total;
    uint offset = workgroupExclusiveAdd(bitCount(bits), total);
    if (tid == 0u)
        reserve(total);
    barrier();
    if (w >= wordCount)
        return;
    uint wordSlot = workgroupBase + offset;
    uint slot = wordSlot;
    for (uint rest = bits; rest != 0u && slot < params.activeCapacity; rest &= rest - 1u)
        activeBlocks[slot++] = 32u * w + uint(findLSB(rest));
    if (WELD)
        storeListedWord(w, bits, wordSlot);
}

// An invocation per block, COMPACT_ROUNDS runs a workgroup.
void listByBlocks(uint group, uint blockCount)
{
    uint tid = gl_LocalInvocationIndex;
    uint firstBlock = group * WORKGROUP_SIZE * COMPACT_ROUNDS;
    for (uint w = tid; w < BLOCK_WORDS; w += WORKGROUP_SIZE)
        activeBits[w] = 0u;
    barrier();
    uint bit = 1u << (tid % 32u);
    for (uint round = 0u; round < COMPACT_ROUNDS; ++round) {
        uint blockIndex = firstBlock + round * WORKGROUP_SIZE + tid;
        if (blockIndex < blockCount && straddles(blockRangeAt(blockIndex)))
            atomicOr(activeBits[round * RUN_WORDS + tid / 32u], bit);
    }
    barrier();

    uint total = 0u;
    for (uint first = 0u; first < BLOCK_WORDS; first += WORKGROUP_SIZE) {
        uint w = first + tid;
        uint chunkTotal;
        uint offset = workgroupExclusiveAdd(w < BLOCK_WORDS ? bitCount(activeBits[w]) : 0u, chunkTotal);
        if (w < BLOCK_WORDS)
            wordFirstSlot[w] = total + offset;
        total += chunkTotal;
    }
    if (tid == 0u)
        reserve(total);
    barrier();

    for (uint round = 0u; round < COMPACT_ROUNDS; ++round) {
        uint blockIndex = firstBlock + round * WORKGROUP_SIZE + tid;
        uint w = round * RUN_WORDS + tid / 32u;
        uint bits = activeBits[w];
        uint wordSlot = workgroupBase + wordFirstSlot[w];
        uint slot = wordSlot + bitCount(bits & (bit - 1u));
        if ((bits & bit) != 0u && slot < params.activeCapacity)
            activeBlocks[slot] = blockIndex;
        if (WELD && tid % 32u == 0u && blockIndex < blockCount)
            storeListedWord(blockIndex / 32u, bits, wordSlot);
    }
}

void main()
{
    uint blockCount = params.blockCounts.x * params.blockCounts.y * params.blockCounts.z;
    uint group = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
    if (WORD_INVOCATIONS)
        listByWords(group, blockCount);
    else
        listByBlocks(group, blockCount);
}
