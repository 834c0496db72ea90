// Pass 1 (paper section 4.1), the walk both range shaders share: the value
// range of each voxel block, reading every sample once where it can.
//
// A lane owns a chunk of RANGE_LANE_SAMPLES consecutive samples along x (one
// texel, or one 16-byte load of raw words) and walks RANGE_ROWS block rows in
// y and RANGE_LAYERS block layers in z through it. With CELL_RANGES a block
// also covers the sample layer after it on its upper faces; the lane loads a
// boundary row or slice once and adds it to both blocks that share it, so
// only the row after the lane's last block row and the slice after the
// workgroup's last layer are read twice (by the next lane or workgroup):
// 17/16 × 33/32 of the samples for 8×4×4 blocks, where a workgroup per block
// layer read 5/4 × 5/4. The x-overlap is the first sample of the next chunk,
// which the next lane holds: lanes exchange these heads through shared
// memory once per block layer, and the workgroup's last lane along x reads
// the one after the workgroup's run itself.
//
// The includer defines the three functions declared below how samples are
// read; samples are in data units with non-finite ones mapped to -inf
// (outsideValue), so that a range's minimum turns -inf and its maximum stays.

#extension GL_EXT_control_flow_attributes : require

#include "half_range.glsl"

// Lanes along x per workgroup (a multiple of the lanes a block spans, of two
// blocks with BYTE_RANGES); WORKGROUP_SIZE / RANGE_LANES_X lane rows along y.
layout(constant_id = 12) const uint RANGE_LANES_X = 256;
// Block rows each lane walks in y, and block layers each workgroup walks in z.
layout(constant_id = 13) const uint RANGE_ROWS = 4;
layout(constant_id = 14) const uint RANGE_LAYERS = 8;
// Samples of a lane's chunk along x: 1 (a texel), or what one load of up to
// 4 words holds. Either a multiple or a divisor of BLOCK_X.
layout(constant_id = 15) const uint RANGE_LANE_SAMPLES = 1;

const uint RANGE_LANES_Y = WORKGROUP_SIZE / RANGE_LANES_X;
// A chunk is cut into segments that each lie in one block: whole blocks
// (several per chunk), or the whole chunk (several chunks per block).
const uint SEGMENT_SAMPLES = RANGE_LANE_SAMPLES < BLOCK_X ? RANGE_LANE_SAMPLES : BLOCK_X;
const uint SEGMENTS = RANGE_LANE_SAMPLES / SEGMENT_SAMPLES;
const uint SEGMENTS_PER_BLOCK = BLOCK_X / SEGMENT_SAMPLES;
const uint MAX_SEGMENTS = 4; // BlockValueRanges picks chunks with at most 4 blocks
const uint REACH = CELL_RANGES ? 1u : 0u;
const uint BLOCKS_PER_LANE_ROW = RANGE_LANES_X * SEGMENTS / SEGMENTS_PER_BLOCK;

const vec2 EMPTY_RANGE = vec2(1.0 / 0.0, -1.0 / 0.0);

// One row of a lane's chunk, or a sum of such rows: per segment its range
// (with CELL_RANGES and a next segment in the chunk, also that segment's
// first sample: the x-overlap of a block inside the chunk), the range of the
// chunk's first sample (the x-overlap of the block before the chunk), and
// for the workgroup's last lane along x the first sample after its chunk.
struct LaneRow {
    vec2 segment[MAX_SEGMENTS];
    vec2 head;
    vec2 tail;
};

vec2 unite(vec2 a, vec2 b) { return vec2(min(a.x, b.x), max(a.y, b.y)); }

float outsideValue(float v) { return isFiniteValue(v) ? v : -1.0 / 0.0; }

LaneRow emptyLaneRow()
{
    LaneRow row;
    [[unroll]] for (uint s = 0; s < MAX_SEGMENTS; ++s)
        row.segment[s] = EMPTY_RANGE;
    row.head = EMPTY_RANGE;
    row.tail = EMPTY_RANGE;
    return row;
}

LaneRow uniteRows(LaneRow a, LaneRow b)
{
    [[unroll]] for (uint s = 0; s < SEGMENTS; ++s)
        a.segment[s] = unite(a.segment[s], b.segment[s]);
    a.head = unite(a.head, b.head);
    a.tail = unite(a.tail, b.tail);
    return a;
}

// Per block row of the lane: the rows of the slice being read, and the sum
// of the slices of the block layer being walked.
LaneRow sliceRows[RANGE_ROWS];
LaneRow layerRows[RANGE_ROWS];

shared vec2 segmentShared[WORKGROUP_SIZE * SEGMENTS];
shared vec2 headShared[WORKGROUP_SIZE + RANGE_LANES_Y]; // per lane row: RANGE_LANES_X heads and the tail

// The row of the chunk starting at p (p.x its first sample; p is in the volume).
LaneRow laneRow(ivec3 p);
// One sample (the first of the chunk after the workgroup's run).
float sampleAt(ivec3 p);
// Chunks per x-row of the volume.
int laneChunks();

struct Lane {
    uint laneX, laneY;
    uvec2 group;    // the workgroup's place along x and y in a walk of the whole volume
    int chunk;      // along x in the volume
    int firstRow;   // y of the first row the lane reads
    bool hasTail;   // the workgroup's last lane along x, with samples after its run
};

// Row y of slice z. Every lane reads, at a clamped position, so that the
// loads of all rows can be issued before any is used (a load under a branch
// waits for it): a row or slice past the volume repeats the last one, which
// every block that reaches past the volume already covers; a chunk past the
// row publishes the empty range instead (storeLayer).
LaneRow readRow(Lane lane, int y, int z)
{
    int x = min(lane.chunk, laneChunks() - 1) * int(RANGE_LANE_SAMPLES);
    ivec3 p = ivec3(x, min(y, params.dims.y - 1), min(z, params.dims.z - 1));
    LaneRow row = laneRow(p);
    row.tail = EMPTY_RANGE;
    if (CELL_RANGES && lane.hasTail)
        row.tail = vec2(sampleAt(p + ivec3(RANGE_LANE_SAMPLES, 0, 0)));
    return row;
}

// sliceRows for slice z. A row on a block-row boundary is read once and
// added to both block rows.
void readSlice(Lane lane, int z)
{
    LaneRow edge = readRow(lane, lane.firstRow, z);
    [[unroll]] for (uint j = 0; j < RANGE_ROWS; ++j) {
        int y = lane.firstRow + int(j * BLOCK_Y);
        LaneRow sum = CELL_RANGES || j == 0u ? edge : readRow(lane, y, z);
        [[unroll]] for (uint i = 1; i < BLOCK_Y; ++i)
            sum = uniteRows(sum, readRow(lane, y + int(i), z));
        if (CELL_RANGES) {
            edge = readRow(lane, y + int(BLOCK_Y), z);
            sum = uniteRows(sum, edge);
        }
        sliceRows[j] = sum;
    }
}

// The range of block `block` (counted along the workgroup's run) of lane row
// laneY, from the segments and heads in shared memory.
vec2 runBlockRange(uint laneY, uint block)
{
    uint first = laneY * RANGE_LANES_X * SEGMENTS + block * SEGMENTS_PER_BLOCK;
    vec2 range = EMPTY_RANGE;
    for (uint s = 0; s < SEGMENTS_PER_BLOCK; ++s)
        range = unite(range, segmentShared[first + s]);
    // A next segment inside the chunk is already in the segment's range.
    uint next = (block + 1u) * SEGMENTS_PER_BLOCK;
    if (CELL_RANGES && next % SEGMENTS == 0u)
        range = unite(range, headShared[laneY * (RANGE_LANES_X + 1u) + next / SEGMENTS]);
    return range;
}

// Writes the ranges of block layer blockZ from layerRows: one block row of
// the lanes at a time through shared memory. Every invocation calls it.
void storeLayer(Lane lane, uint blockZ)
{
    uint tid = gl_LocalInvocationIndex;
    uint writers = BYTE_RANGES ? 2u : 1u; // blocks per stored word
    uint wordsPerLaneRow = BLOCKS_PER_LANE_ROW / writers;
    bool inRow = lane.chunk < laneChunks();
    [[unroll]] for (uint j = 0; j < RANGE_ROWS; ++j) {
        [[unroll]] for (uint s = 0; s < SEGMENTS; ++s)
            segmentShared[tid * SEGMENTS + s] = inRow ? layerRows[j].segment[s] : EMPTY_RANGE;
        headShared[lane.laneY * (RANGE_LANES_X + 1u) + lane.laneX] = inRow ? layerRows[j].head : EMPTY_RANGE;
        if (lane.laneX == RANGE_LANES_X - 1u)
            headShared[lane.laneY * (RANGE_LANES_X + 1u) + RANGE_LANES_X] = layerRows[j].tail;
        barrier();
        for (uint item = tid; item < RANGE_LANES_Y * wordsPerLaneRow; item += WORKGROUP_SIZE) {
            uint laneY = item / wordsPerLaneRow;
            uint block = item % wordsPerLaneRow * writers;
            uvec3 b = uvec3(lane.group.x * BLOCKS_PER_LANE_ROW + block,
                            (lane.group.y * RANGE_LANES_Y + laneY) * RANGE_ROWS + j, blockZ);
            // Outside the box of blocks this dispatch writes (never past the volume's).
            if (any(lessThan(b.xy, params.rangeFirstBlock)) || any(greaterThanEqual(b.xy, params.rangeEndBlock)))
                continue;
            vec2 range = runBlockRange(laneY, block);
            if (!BYTE_RANGES) {
                blockMinMax[blockIndexOf(b)] = packRangeOutward(range);
                continue;
            }
            // Pairs along x share a word (BLOCKS_PER_LANE_ROW is even).
            vec2 second = b.x + 1u < params.blockCounts.x ? runBlockRange(laneY, block + 1u) : EMPTY_RANGE;
            blockMinMax[byteRangeWord(b)] = packByteRange(range) | (packByteRange(second) << 16);
        }
        barrier();
    }
}

// The walk: block layers params.firstBlockLayer + [0, params.layerCount) are
// bound; the dispatch covers those from params.layerOffset, this workgroup
// RANGE_LAYERS of them. Along x and y the dispatch starts at the workgroup
// that holds the box's first block (a region's blocks, or all of them).
void walkBlockRanges()
{
    Lane lane;
    lane.laneX = gl_LocalInvocationIndex % RANGE_LANES_X;
    lane.laneY = gl_LocalInvocationIndex / RANGE_LANES_X;
    lane.group = gl_WorkGroupID.xy + params.rangeFirstBlock / uvec2(BLOCKS_PER_LANE_ROW, RANGE_LANES_Y * RANGE_ROWS);
    lane.chunk = int(lane.group.x * RANGE_LANES_X + lane.laneX);
    lane.firstRow = int(((lane.group.y * RANGE_LANES_Y + lane.laneY) * RANGE_ROWS) * BLOCK_Y);
    lane.hasTail = lane.laneX == RANGE_LANES_X - 1u && lane.chunk + 1 < laneChunks();

    uint firstLayer = params.layerOffset + gl_WorkGroupID.z * RANGE_LAYERS;
    if (CELL_RANGES) { // the first slice of the first layer; later ones carry over
        readSlice(lane, int((params.firstBlockLayer + firstLayer) * BLOCK_Z));
    }
    [[unroll]] for (uint j = 0; j < RANGE_ROWS; ++j)
        layerRows[j] = CELL_RANGES ? sliceRows[j] : emptyLaneRow();
    for (uint k = 0; k < RANGE_LAYERS; ++k) {
        uint layer = firstLayer + k; // uniform in the workgroup, so the barriers are too
        if (layer >= params.layerCount)
            break;
        int z = int((params.firstBlockLayer + layer) * BLOCK_Z);
        for (uint t = REACH; t < BLOCK_Z + REACH; ++t) {
            readSlice(lane, z + int(t));
            [[unroll]] for (uint j = 0; j < RANGE_ROWS; ++j)
                layerRows[j] = uniteRows(layerRows[j], sliceRows[j]);
        }
        storeLayer(lane, params.firstBlockLayer + layer);
        // With CELL_RANGES the last slice read is the next layer's first.
        [[unroll]] for (uint j = 0; j < RANGE_ROWS; ++j)
            layerRows[j] = CELL_RANGES ? sliceRows[j] : emptyLaneRow();
    }
}
