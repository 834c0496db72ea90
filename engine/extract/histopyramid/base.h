#pragma once
// The HistoPyramid's lowest three levels (shaders/extract/histopyramid/base.comp):
// each workgroup walks a column of level-2 layers up z in runs of 16x2
// points, classifies their points and writes the level-0 bytes of the nodes
// with counts, all level-1 entries and the level-2 sums. `column` and
// `groups`: histoPyramidBaseColumn and histoPyramidBaseGroups. A pipeline
// per volume: its sample type, and whether its lines are 16 aligned bytes.
#include "extract/histopyramid/histopyramid_layout.h"
#include "volume/volume.h"

namespace isoscope {

class HistoPyramidBasePass : public HistoPyramidPass {
public:
    HistoPyramidBasePass(Context& context, const Volume& volume);
    void add(RenderGraph& graph, const std::string& name, const HistoPyramidResources& r, const HistoPyramidPush& push,
             const float& iso, uint32_t column, uint64_t groups) const;
};

} // namespace isoscope
