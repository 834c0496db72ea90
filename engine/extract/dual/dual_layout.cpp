#include "extract/dual/dual_layout.h"

#include <cstddef>

#include "extract/gpu_extractor.h"

namespace isoscope {

const std::vector<PushMember>& dualPushMembers()
{
    static const std::vector<PushMember> members = gridPushMembers<DualPush>(
        {ISOSCOPE_PUSH_MEMBER(DualPush, tableBuckets), ISOSCOPE_PUSH_MEMBER(DualPush, colorClass),
         ISOSCOPE_PUSH_MEMBER(DualPush, extraVertexCapacity), ISOSCOPE_PUSH_MEMBER(DualPush, extraFaceCapacity),
         ISOSCOPE_PUSH_MEMBER(DualPush, activeBlockCapacity), ISOSCOPE_PUSH_MEMBER(DualPush, activeCellCapacity),
         ISOSCOPE_PUSH_MEMBER(DualPush, edgeListCapacity)});
    return members;
}

} // namespace isoscope
