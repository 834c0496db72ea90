#pragma once
// Between listing and generating a slab (shaders/extract/scan/prepare_generate.comp):
// the slab's totals become its first vertex and triangle (after the slabs
// before it), the mesh's counts and generate's indirect dispatch; the most
// entries a slab needed is kept for overflow handling.
#include "extract/scan/scan_layout.h"

namespace isoscope {

class Context;
class RenderGraph;

class ScanPreparePass {
public:
    explicit ScanPreparePass(Context& context);
    void add(RenderGraph& graph, const ScanResources& r, const ScanSlab& slab, uint32_t generateWorkgroupSize) const;

private:
    ComputeProgram program_;
};

} // namespace isoscope
