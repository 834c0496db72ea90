// Single-pass scan: decoupled look-back (Merrill & Garland 2016) with
// decoupled fallback (Smith, Levien & Owens 2025), so it moves a copy's
// traffic (the input read once, the output written once) and still needs no
// forward-progress guarantee between workgroups, which Vulkan does not give.
// Included by scan_single_pass.comp (tile states in 32-bit words) and
// scan_single_pass_packed.comp (64-bit tile states, where the device has
// 64-bit buffer atomics); they differ only in how a tile's state is stored.
//
// A workgroup takes the next tile from a ticket counter (so the tiles it
// waits on belong to workgroups that have started), loads it, publishes the
// tile's exact 64-bit sum (its aggregate), then walks back over the tiles
// before it, one subgroup-wide window at a time, adding aggregates until it
// meets a tile that published its inclusive prefix. A tile that has published
// nothing after SPIN_LIMIT polls is not waited on: the workgroup reduces that
// tile's input itself, publishes the aggregate for it, and walks on. So every
// workgroup finishes whatever the scheduler does; the wait is only a way to
// save the re-read. Then it publishes its own inclusive prefix and writes the
// tile's prefixes (or compacted indices) as scan_downsweep does.
//
// Published values, in neither form needing an order between two writes (no
// memory model feature), read with relaxed atomic loads from a zeroed buffer:
// - 32-bit words: per tile and summed component, an aggregate and an
//   inclusive prefix, each 64 bits in three words of 31 payload bits and a
//   valid bit (bit 31). Each word is written once with an atomic OR, and a
//   value counts only when all three words are valid. A fallback writes the
//   same aggregate the tile computes itself, so two writers OR identical bits.
// - PACKED_STATE: per tile and summed component, one 64-bit word: the state
//   in bits 62-63 (aggregate 1, inclusive prefix 2) over the value's low 62
//   bits, published with atomicMax, so a word only moves up and a fallback's
//   aggregate never hides the owner's inclusive prefix. A poll is one load a
//   component, not three or six. On the H100 the two-word scan of 2^30
//   elements went from 10.02 to 8.85 ms with it (docs/BENCHMARKS.md).
//   Values modulo 2^62 keep every prefix's low 32 bits (what is written)
//   exact; the C++ side uses it only where the totals stay below 2^62.
//
// Not in place: a fallback reads another tile's input, which that tile may be
// overwriting. ExclusiveScan uses the reduce-then-scan passes for that case.
//
// Before including: #version, and with PACKED_STATE the 64-bit integer and
// 64-bit atomic extensions.
#extension GL_GOOGLE_include_directive : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_memory_scope_semantics : require

layout(constant_id = 0) const uint SUBGROUP_SIZE = 32;
layout(constant_id = 1) const uint WORKGROUP_SIZE = 256;
layout(constant_id = 2) const uint ITEMS = 16; // a multiple of 4: whole vectors
layout(constant_id = 3) const uint COMPONENTS = 1;
layout(constant_id = 4) const uint SELECT = 0;
// Polls of a tile that has published nothing before reducing it here.
layout(constant_id = 5) const uint SPIN_LIMIT = 256;
// Tests: 0, or N to make the look-back treat every tile k with k % N == N - 1
// as unpublished and reduce it itself at once (SPIN_LIMIT is then ignored for
// such tiles), so the fallback path runs on any scheduler.
layout(constant_id = 6) const uint FORCE_FALLBACK_EVERY = 0;
layout(local_size_x_id = 1) in;

layout(set = 0, binding = 0, std430) readonly buffer Input { uint inputWords[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Output { uint outputWords[]; };
// Word 0 counts fallbacks (for the benchmark); word 1 + s is segment s's ticket counter.
layout(set = 0, binding = 2, std430) coherent buffer Control { uint control[]; };
#ifdef PACKED_STATE
layout(set = 0, binding = 3, std430) coherent buffer TileStates { uint64_t tileStates64[]; };
#else
layout(set = 0, binding = 3, std430) coherent buffer TileStates { uint tileStates[]; };
#endif
layout(set = 0, binding = 4, std430) writeonly buffer Totals { uvec2 totals[]; };
// Input's and Output's bytes again, four words an element (scan_common.glsl).
layout(set = 0, binding = 5, std430) readonly buffer InputVectors { uvec4 inputVectors[]; };
layout(set = 0, binding = 6, std430) writeonly buffer OutputVectors { uvec4 outputVectors[]; };
layout(push_constant) uniform Push {
    uint count;      // elements in this segment
    uint firstBlock; // tile index of the segment's first tile
    uint blockCount; // tiles in this segment
    uint firstIndex; // index of the segment's first element (compaction output)
    uint segment;    // which ticket counter
    uint lastBlock;  // tile index of the last tile of the whole input: it writes the totals
} p;

#include "subgroup_scan.glsl"
#define SCAN_LOADS_VECTORS
#define SCAN_WRITES_OUTPUTS
#include "scan_common.glsl"

const uint NOTHING = 0u, AGGREGATE = 1u, INCLUSIVE = 2u;

// Up to two 64-bit sums as (low, high, low, high).
uvec4 add64x2(uvec4 a, uvec4 b) { return uvec4(add64(a.xy, b.xy), add64(a.zw, b.zw)); }

// Tests: tiles of this segment the look-back must reduce itself. (Earlier
// segments' tiles finished in earlier dispatches; their input is not bound.)
bool forcedFallback(uint tile)
{
    return FORCE_FALLBACK_EVERY != 0u && tile >= p.firstBlock && tile % FORCE_FALLBACK_EVERY == FORCE_FALLBACK_EVERY - 1u;
}

// Polls read with atomic loads, not read-modify-writes: many workgroups
// poll the same few tiles at once.
#ifdef PACKED_STATE
const uint64_t PAYLOAD64 = 0x3FFFFFFFFFFFFFFFul;
uint stateWord(uint tile, uint component) { return tile * SUM_COMPONENTS + component; }

void publish(uint tile, uint kind, uvec4 value)
{
    atomicMax(tileStates64[stateWord(tile, 0u)], (uint64_t(kind) << 62) | (packUint2x32(value.xy) & PAYLOAD64));
    if (SUM_COMPONENTS == 2u)
        atomicMax(tileStates64[stateWord(tile, 1u)], (uint64_t(kind) << 62) | (packUint2x32(value.zw) & PAYLOAD64));
}

uint64_t loadState64(uint word)
{
    return atomicLoad(tileStates64[word], gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
}

uint tileState(uint tile, out uvec4 value)
{
    if (forcedFallback(tile))
        return NOTHING;
    uint64_t first = loadState64(stateWord(tile, 0u));
    uint64_t second = SUM_COMPONENTS == 2u ? loadState64(stateWord(tile, 1u)) : first;
    value = uvec4(unpackUint2x32(first & PAYLOAD64), SUM_COMPONENTS == 2u ? unpackUint2x32(second & PAYLOAD64) : uvec2(0u));
    uint firstState = uint(first >> 62), secondState = uint(second >> 62);
    // Components in different states: a writer is between its two atomics.
    // Waiting is enough (words only move up), and the look-back's fallback
    // covers a writer that does not come back.
    return firstState == secondState ? firstState : NOTHING;
}
#else
const uint VALID = 0x80000000u;
const uint PAYLOAD = 0x7FFFFFFFu;
const uint WORDS_PER_VALUE = 3u;
const uint STATE_WORDS = 2u * WORDS_PER_VALUE * SUM_COMPONENTS; // aggregate, then inclusive

// The first of the three words of `kind` (AGGREGATE or INCLUSIVE) of
// `component` of `tile`.
uint stateWord(uint tile, uint kind, uint component)
{
    return tile * STATE_WORDS + ((kind - 1u) * SUM_COMPONENTS + component) * WORDS_PER_VALUE;
}

// 64 bits as three 31-bit pieces and back.
uvec3 pieces(uvec2 v) { return uvec3(v.x & PAYLOAD, ((v.x >> 31) | (v.y << 1)) & PAYLOAD, v.y >> 30); }
uvec2 joinPieces(uvec3 w) { return uvec2(w.x | (w.y << 31), (w.y >> 1) | (w.z << 30)); }

void publishValue(uint first, uvec2 value)
{
    uvec3 w = pieces(value) | VALID;
    atomicOr(tileStates[first], w.x);
    atomicOr(tileStates[first + 1u], w.y);
    atomicOr(tileStates[first + 2u], w.z);
}

void publish(uint tile, uint kind, uvec4 value)
{
    publishValue(stateWord(tile, kind, 0u), value.xy);
    if (SUM_COMPONENTS == 2u)
        publishValue(stateWord(tile, kind, 1u), value.zw);
}

uint loadState(uint word)
{
    return atomicLoad(tileStates[word], gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
}

// Whether all three words are there; the value in `value`.
bool readValue(uint first, out uvec2 value)
{
    uvec3 w = uvec3(loadState(first), loadState(first + 1u), loadState(first + 2u));
    value = joinPieces(w & PAYLOAD);
    return (w.x & w.y & w.z & VALID) != 0u;
}

bool readPublished(uint tile, uint kind, out uvec4 value)
{
    uvec2 first, second = uvec2(0u);
    bool complete = readValue(stateWord(tile, kind, 0u), first);
    if (SUM_COMPONENTS == 2u) {
        bool secondComplete = readValue(stateWord(tile, kind, 1u), second);
        complete = complete && secondComplete;
    }
    value = uvec4(first, second);
    return complete;
}

uint tileState(uint tile, out uvec4 value)
{
    if (forcedFallback(tile))
        return NOTHING;
    if (readPublished(tile, INCLUSIVE, value))
        return INCLUSIVE;
    if (readPublished(tile, AGGREGATE, value))
        return AGGREGATE;
    return NOTHING;
}
#endif

// Exact sum over the subgroup of up to two 64-bit values, by a butterfly of
// shuffles and 64-bit adds (subgroup sizes are powers of two). Not two
// subgroupAdd calls on 16-bit pieces: on the H100 (driver of 2026-11) the
// second of two such calls in a row returned the first one's sum, which
// gave one component the other's prefix; lavapipe did not show it.
uvec4 subgroupSum64x2(uvec4 v)
{
    for (uint lanes = 1u; lanes < gl_SubgroupSize; lanes <<= 1)
        v = add64x2(v, subgroupShuffleXor(v, lanes));
    if (SUM_COMPONENTS == 1u)
        v.zw = uvec2(0u);
    return v;
}

// The tile's vectors, subgroup s owning a run of gl_SubgroupSize * VECTORS
// consecutive ones (scan_downsweep.comp): index of this lane's j-th vector.
uint runVector(uint localTile, uint j)
{
    return localTile * WORKGROUP_SIZE * VECTORS + gl_SubgroupID * gl_SubgroupSize * VECTORS + j * gl_SubgroupSize +
           gl_SubgroupInvocationID;
}

// Exact per-lane sums of 16-bit halves (components 0 and 1): scan_reduce's
// rule, so sums of a tile of at most 65536 elements stay exact in 32 bits.
uvec4 halvesOf(uvec4 words)
{
    uvec4 halves = uvec4(0u);
    for (uint k = 0u; k < VECTOR_ELEMENTS; ++k) {
        uvec2 value = vectorElement(words, k);
        halves += uvec4(splitHalves(value.x), splitHalves(value.y));
    }
    return halves;
}

shared uvec4 subgroupHalves[(WORKGROUP_SIZE + SUBGROUP_SIZE - 1) / SUBGROUP_SIZE];

// The tile's exact 64-bit sums from every lane's halves; every invocation
// gets them. Contains barriers: the whole workgroup calls it.
uvec4 workgroupSum64(uvec4 halves)
{
    halves = subgroupAdd(halves);
    if (subgroupElect())
        subgroupHalves[gl_SubgroupID] = halves;
    barrier();
    uvec4 total = uvec4(0u);
    for (uint s = 0u; s < gl_NumSubgroups; ++s)
        total += subgroupHalves[s];
    barrier(); // subgroupHalves may be reused
    return uvec4(joinHalves(total.xy), joinHalves(total.zw));
}

shared uint ticket;
shared uint lookDecision; // what the look-back window found, for the whole workgroup
shared uint lookNext;     // tiles [0, lookNext) are still to be added
shared uvec2 tileOffset;  // exclusive prefix of the tile, low words

const uint LOOK_DONE = 0u, LOOK_AGAIN = 1u, LOOK_REDUCE = 2u;

void main()
{
    if (gl_LocalInvocationIndex == 0u)
        ticket = atomicAdd(control[1u + p.segment], 1u);
    barrier();
    uint localTile = ticket;
    if (localTile >= p.blockCount)
        return; // the whole workgroup: a padding workgroup of the 2D grid
    uint tile = p.firstBlock + localTile;
    uint countWords = p.count * COMPONENTS;

    uvec4 vectors[VECTORS];
    for (uint j = 0u; j < VECTORS; ++j) {
        uint v = runVector(localTile, j);
        vectors[j] = 4u * v < countWords ? loadVector(v, countWords) : uvec4(0u);
    }
    uvec4 halves = uvec4(0u);
    for (uint j = 0u; j < VECTORS; ++j)
        halves += halvesOf(vectors[j]);
    uvec4 aggregate = workgroupSum64(halves);
    if (gl_SubgroupID == 0u && subgroupElect())
        publish(tile, tile == 0u ? INCLUSIVE : AGGREGATE, aggregate);

    // Look-back. Subgroup 0 reads a window of gl_SubgroupSize tiles, lane l
    // tile next - 1 - l, and adds everything up to the nearest inclusive
    // prefix or up to the nearest tile with nothing published.
    uvec4 exclusive = uvec4(0u); // meaningful in subgroup 0
    uint next = tile;
    uint spins = 0u;
    while (next > 0u) {
        if (gl_SubgroupID == 0u) {
            uint lane = gl_SubgroupInvocationID;
            uvec4 value = uvec4(0u);
            uint state = INCLUSIVE; // before tile 0: an inclusive zero
            if (lane < next)
                state = tileState(next - 1u - lane, value);
            uvec4 inclusiveLanes = subgroupBallot(state == INCLUSIVE);
            uvec4 missingLanes = subgroupBallot(state == NOTHING);
            uint firstInclusive = subgroupBallotBitCount(inclusiveLanes) != 0u ? subgroupBallotFindLSB(inclusiveLanes)
                                                                              : gl_SubgroupSize;
            uint firstMissing = subgroupBallotBitCount(missingLanes) != 0u ? subgroupBallotFindLSB(missingLanes)
                                                                          : gl_SubgroupSize;
            uint decision;
            uint taken; // lanes added
            if (firstInclusive < firstMissing) {
                taken = firstInclusive + 1u;
                decision = LOOK_DONE;
            } else {
                taken = firstMissing; // gl_SubgroupSize when the window held only aggregates
                spins = taken > 0u ? 0u : spins + 1u;
                bool forced = taken < gl_SubgroupSize && forcedFallback(next - 1u - taken);
                decision = taken < gl_SubgroupSize && (forced || spins > SPIN_LIMIT) ? LOOK_REDUCE : LOOK_AGAIN;
            }
            exclusive = add64x2(exclusive, subgroupSum64x2(lane < taken ? value : uvec4(0u)));
            if (subgroupElect()) {
                lookDecision = decision;
                lookNext = decision == LOOK_DONE ? 0u : next - taken;
            }
        }
        barrier();
        uint decision = lookDecision;
        next = lookNext;
        barrier(); // subgroup 0 may write both again
        if (decision == LOOK_REDUCE) {
            // Tile next - 1 has published nothing: reduce its input here. It is in
            // this segment: earlier segments' tiles all finished in earlier dispatches.
            uint missing = next - 1u;
            uint missingLocal = missing - p.firstBlock;
            uvec4 missingHalves = uvec4(0u);
            for (uint j = 0u; j < VECTORS; ++j) {
                uint v = runVector(missingLocal, j);
                if (4u * v < countWords)
                    missingHalves += halvesOf(loadVector(v, countWords));
            }
            uvec4 missingSum = workgroupSum64(missingHalves);
            if (gl_SubgroupID == 0u) {
                exclusive = add64x2(exclusive, missingSum);
                spins = 0u;
                if (subgroupElect()) {
                    publish(missing, AGGREGATE, missingSum);
                    atomicAdd(control[0], 1u);
                }
            }
            next = missing;
        }
    }
    if (gl_SubgroupID == 0u && subgroupElect()) {
        if (tile != 0u)
            publish(tile, INCLUSIVE, add64x2(exclusive, aggregate));
        if (tile == p.lastBlock) {
            uvec4 total = add64x2(exclusive, aggregate);
            totals[0] = total.xy;
            if (SUM_COMPONENTS == 2u)
                totals[1] = total.zw;
        }
        tileOffset = uvec2(exclusive.x, exclusive.z);
    }

    // The tile's own scan, as in scan_downsweep, after publishing: a later
    // tile's look-back waits on the inclusive prefix, not on this. Its
    // barriers also make tileOffset visible.
    uvec2 prefix[VECTORS];
    uvec2 runTotal = uvec2(0u);
    for (uint j = 0u; j < VECTORS; ++j) {
        uvec2 sum = uvec2(0u);
        for (uint k = 0u; k < VECTOR_ELEMENTS; ++k)
            sum += vectorElement(vectors[j], k);
        uvec2 inclusive, rowTotal; // the row's total: the last lane's inclusive sum
        if (SUM_COMPONENTS == 2u) {
            inclusive = subgroupInclusiveAdd(sum);
            rowTotal = subgroupShuffle(inclusive, gl_SubgroupSize - 1u);
        } else {
            inclusive = uvec2(subgroupInclusiveAdd(sum.x), 0u);
            rowTotal = uvec2(subgroupShuffle(inclusive.x, gl_SubgroupSize - 1u), 0u);
        }
        prefix[j] = runTotal + inclusive - sum;
        runTotal += rowTotal;
    }
    bool leader = gl_SubgroupInvocationID == 0u;
    uvec2 unusedTotal;
    uvec2 offset = workgroupExclusiveAdd2(leader ? runTotal : uvec2(0u), unusedTotal);
    if (!leader)
        offset -= runTotal;

    offset += tileOffset;

    for (uint j = 0u; j < VECTORS; ++j) {
        uint v = runVector(localTile, j);
        if (4u * v >= countWords)
            break;
        writeVectorResults(v, vectors[j], prefix[j] + offset, countWords);
    }
}
