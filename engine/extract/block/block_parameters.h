#pragma once
// The push constants every pass of the block method reads: `Parameters` in
// shaders/extract/block/block_common.glsl, field for field.
#include <cstdint>

namespace isoscope {

struct BlockParameters {
    int32_t dims[3];
    float iso;
    uint32_t blockCounts[3];
    float valueScale;
    float origin[3];
    uint32_t roundValues;
    float spacing[3];
    uint32_t activeCapacity;
    uint32_t firstBlockLayer;
    uint32_t rowWords;
    uint32_t layerOffset;
    uint32_t layerCount;
    uint32_t rangeFirstBlock[2]; // range passes: the box of blocks (x, y) whose ranges a dispatch writes
    uint32_t rangeEndBlock[2];
    int32_t firstPlane;        // streamed slabs: the volume's z of the grid's plane 0
    uint32_t imagePlanesBelow; // streamed slabs: planes the image holds below the grid's plane 0
    uint32_t volumePlanes;     // the whole volume's planes (dims[2] but for streamed slabs)
};
static_assert(sizeof(BlockParameters) == 108);

} // namespace isoscope
