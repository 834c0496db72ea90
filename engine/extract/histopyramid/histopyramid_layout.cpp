#include "extract/histopyramid/histopyramid_layout.h"

#include <cstddef>

#include "extract/gpu_extractor.h"

namespace isoscope {

const std::vector<PushMember>& histoPyramidPushMembers()
{
    static const std::vector<PushMember> members = gridPushMembers<HistoPyramidPush>(
        {ISOSCOPE_PUSH_MEMBER(HistoPyramidPush, topLevel), ISOSCOPE_PUSH_MEMBER(HistoPyramidPush, level)});
    return members;
}

} // namespace isoscope
