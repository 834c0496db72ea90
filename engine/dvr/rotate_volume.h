#pragma once
// The in-place quarter turn of a volume's image about y
// (shaders/dvr/rotate_volume.glsl, a shader per texel size): forward, (x, y, z) → (n − 1 − z, y, x),
// or back. The image must be padded to square xz slices of a multiple of
// 2 × kRotationTile (GpuVolumeUsage::squareXZMultiple), so that the tiles
// form whole four-cycles; no memory beyond a workgroup's shared tiles.
#include <cstdint>
#include <optional>
#include <string>

#include "core/shader.h"
#include "graph/render_graph.h"

namespace isoscope {

class Context;
class GpuVolume;

constexpr uint32_t kRotationTile = 16;
constexpr uint32_t kRotationPadding = 2 * kRotationTile; // squareXZMultiple for rotatable volumes

class VolumeRotation {
public:
    // Throws Error when the volume is not padded for it or the device cannot
    // store its texels as unsigned integers.
    VolumeRotation(Context& context, const GpuVolume& volume);
    // Whether `context` and `volume` allow it (the constructor's conditions).
    static bool possible(const Context& context, const GpuVolume& volume);

    // Records one quarter turn, forward (true) or back, of the graph's `image`
    // (the volume's import), a pass that declares it written.
    void record(VkCommandBuffer cmd, bool forward) const;
    const ComputeProgram& program() const { return *program_; }

private:
    const GpuVolume& volume_;
    std::optional<ComputeProgram> program_;
};

} // namespace isoscope
