#include "extract/scan/scan_layout.h"

#include <cstddef>

namespace isoscope {

const std::vector<PushMember>& scanGridPushMembers()
{
#define MEMBER(m) ISOSCOPE_PUSH_MEMBER(ScanGridPush, m)
    static const std::vector<PushMember> members = {
        MEMBER(nx),       MEMBER(ny),       MEMBER(nz),           MEMBER(z0),          MEMBER(planes),
        MEMBER(slabFlags), MEMBER(scalarType), MEMBER(iso),       MEMBER(originX),     MEMBER(originY),
        MEMBER(originZ),  MEMBER(spacingX), MEMBER(spacingY),     MEMBER(spacingZ),    MEMBER(listCapacity),
        MEMBER(volumeFirstPlane), MEMBER(volumeFirstSample)};
#undef MEMBER
    return members;
}

} // namespace isoscope
