#pragma once
// The push constants of the scan primitives' passes, each the C++ side of a
// shader's `Push` block, with its members for checkPushLayout.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/shader.h"

namespace isoscope {

struct ScanReducePush { // scan_reduce.comp
    uint32_t count, firstBlock, blockCount;
};
struct ScanDownsweepPush { // scan_downsweep.comp
    uint32_t count, firstBlock, blockCount, firstIndex;
};
struct BlocksReducePush { // scan_blocks_reduce.comp
    uint32_t blockCount, span;
};
struct BlocksScanPush { // scan_blocks.comp
    uint32_t blockCount, span, top;
};
struct SinglePassPush { // scan_single_pass.glsl
    uint32_t count, firstBlock, blockCount, firstIndex, segment, lastBlock;
};

#define ISOSCOPE_SCAN_MEMBER(S, m) ISOSCOPE_PUSH_MEMBER(S, m)
inline std::vector<PushMember> scanReducePushMembers()
{
    return {ISOSCOPE_SCAN_MEMBER(ScanReducePush, count), ISOSCOPE_SCAN_MEMBER(ScanReducePush, firstBlock),
            ISOSCOPE_SCAN_MEMBER(ScanReducePush, blockCount)};
}
inline std::vector<PushMember> scanDownsweepPushMembers()
{
    return {ISOSCOPE_SCAN_MEMBER(ScanDownsweepPush, count), ISOSCOPE_SCAN_MEMBER(ScanDownsweepPush, firstBlock),
            ISOSCOPE_SCAN_MEMBER(ScanDownsweepPush, blockCount), ISOSCOPE_SCAN_MEMBER(ScanDownsweepPush, firstIndex)};
}
inline std::vector<PushMember> blocksReducePushMembers()
{
    return {ISOSCOPE_SCAN_MEMBER(BlocksReducePush, blockCount), ISOSCOPE_SCAN_MEMBER(BlocksReducePush, span)};
}
inline std::vector<PushMember> blocksScanPushMembers()
{
    return {ISOSCOPE_SCAN_MEMBER(BlocksScanPush, blockCount), ISOSCOPE_SCAN_MEMBER(BlocksScanPush, span),
            ISOSCOPE_SCAN_MEMBER(BlocksScanPush, top)};
}
inline std::vector<PushMember> singlePassPushMembers()
{
    return {ISOSCOPE_SCAN_MEMBER(SinglePassPush, count),      ISOSCOPE_SCAN_MEMBER(SinglePassPush, firstBlock),
            ISOSCOPE_SCAN_MEMBER(SinglePassPush, blockCount), ISOSCOPE_SCAN_MEMBER(SinglePassPush, firstIndex),
            ISOSCOPE_SCAN_MEMBER(SinglePassPush, segment),    ISOSCOPE_SCAN_MEMBER(SinglePassPush, lastBlock)};
}
#undef ISOSCOPE_SCAN_MEMBER

} // namespace isoscope
