#pragma once
// Offscreen targets back to the CPU (RGBA8 colour, or one float a pixel:
// R32_SFLOAT, or the depth aspect of D32_SFLOAT): a transfer pass in the graph
// copies the image into a host-visible buffer, and the graph's final barrier
// makes the copy visible to the host once the submission has finished.
#include <string>
#include <vector>

#include "core/memory.h"
#include "graph/render_graph.h"
#include "io/image_io.h"

namespace isoscope {

// A host-visible buffer that holds one image of `extent`, 4 bytes a pixel.
Buffer createReadbackBuffer(Context& context, VkExtent2D extent);

// Adds "read back <name>": copies `color` (4 bytes a pixel) into `readback`, imported
// into the graph with the host as its final reader.
void addReadbackPass(RenderGraph& graph, ResourceId color, const Buffer& readback);

// A host-visible buffer of `bytes`, and "read back <what>": copies the
// first bytes of the buffer `source` into it (counters, small lists).
Buffer createBufferReadback(Context& context, VkDeviceSize bytes, const std::string& what);
void addBufferReadback(RenderGraph& graph, ResourceId source, const Buffer& readback, const std::string& what);

// The pixels, after the graph's submission has finished.
RgbaImage readRgba(const Buffer& readback, VkExtent2D extent);
// One float a pixel (depth images), row by row, after the submission has finished.
std::vector<float> readFloats(const Buffer& readback, VkExtent2D extent);

} // namespace isoscope
