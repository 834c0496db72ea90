#pragma once
// The scan method's last pass over a slab (shaders/extract/scan/generate.comp):
// one invocation per occupied point writes its vertices and triangles at the
// offsets the list holds; the owner of the plane the next slab shares writes
// that plane's vertex numbers to a seam buffer. Dispatched indirectly, as
// prepare sized it.
#include "extract/scan/scan_layout.h"

namespace isoscope {

class Context;
class RenderGraph;

class ScanGeneratePass : public ScanPass {
public:
    static constexpr uint32_t kWorkgroupSize = 64;

    // `edgeCodes`: write each vertex's edge code (streamed slabs, scan_grid.glsl).
    ScanGeneratePass(Context& context, bool weld, bool edgeCodes);
    void add(RenderGraph& graph, const ScanResources& r, const ScanSlab& slab, const float& iso) const;
};

} // namespace isoscope
