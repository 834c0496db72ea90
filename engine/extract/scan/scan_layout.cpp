#include "extract/scan/scan_layout.h"

#include <cstddef>

#include "extract/gpu_extractor.h"
#include "graph/render_graph.h"

namespace isoscope {

const std::vector<PushMember>& scanGridPushMembers()
{
#define MEMBER(m) ISOSCOPE_PUSH_MEMBER(ScanGridPush, m)
    static const std::vector<PushMember> members = gridPushMembers<ScanGridPush>(
        {MEMBER(z0), MEMBER(planes), MEMBER(slabFlags), MEMBER(listCapacity), MEMBER(volumeFirstPlane),
         MEMBER(volumeFirstSample), MEMBER(columnTiles)});
#undef MEMBER
    return members;
}

DescriptorInfo ScanPass::slabPlanes(const RenderGraph& graph, ResourceId volume, const ScanSlab& slab)
{
    return DescriptorInfo(graph.buffer(volume), slab.volumeOffset, slab.volumeBytes);
}

} // namespace isoscope
