#include "extract/histopyramid/histopyramid_layout.h"

#include <cstddef>

namespace isoscope {

const std::vector<PushMember>& histoPyramidPushMembers()
{
#define MEMBER(m) ISOSCOPE_PUSH_MEMBER(HistoPyramidPush, m)
    static const std::vector<PushMember> members = {
        MEMBER(nx),      MEMBER(ny),      MEMBER(nz),       MEMBER(topLevel), MEMBER(scalarType),
        MEMBER(iso),     MEMBER(originX), MEMBER(originY),  MEMBER(originZ),  MEMBER(spacingX),
        MEMBER(spacingY), MEMBER(spacingZ), MEMBER(level)};
#undef MEMBER
    return members;
}

} // namespace isoscope
