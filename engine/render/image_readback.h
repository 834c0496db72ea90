#pragma once
// Offscreen colour targets back to the CPU: a transfer pass in the graph
// copies the image into a host-visible buffer, and the graph's final barrier
// makes the copy visible to the host once the submission has finished.
#include "core/memory.h"
#include "graph/render_graph.h"
#include "io/image_io.h"

namespace isoscope {

// A host-visible buffer that holds one RGBA8 image of `extent`.
Buffer createReadbackBuffer(Context& context, VkExtent2D extent);

// Adds "read back <name>": copies `color` (RGBA8) into `readback`, imported
// into the graph with the host as its final reader.
void addReadbackPass(RenderGraph& graph, ResourceId color, const Buffer& readback);

// The pixels, after the graph's submission has finished.
RgbaImage readRgba(const Buffer& readback, VkExtent2D extent);

} // namespace isoscope
