#pragma once
// 1D transfer functions for direct volume rendering: piecewise-linear colour
// and opacity over the data's values, baked into the table the GPU reads.
//
// Opacity is per voxel of distance: a sample's opacity at a step of s voxels
// is 1 − (1 − a)^s (the renderer corrects it), so a table looks the same at
// any step. Values outside the control points clamp to the end points.
//
// Sources: ParaView's exported colour-map / opacity JSON (`RGBPoints`,
// `Points`), a text format of `value r g b a` lines (transfer_function_io.h),
// and built-in presets (transfer_function_presets.h).
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <glm/glm.hpp>

namespace isoscope {

struct ColorPoint {
    double value = 0.0;
    glm::vec3 rgb{0.0f}; // 0..1
};

struct OpacityPoint {
    double value = 0.0;
    float alpha = 0.0f; // 0..1, per voxel of distance
};

struct TransferFunction {
    std::string name;                  // preset name or file, for messages
    std::vector<ColorPoint> color;     // sorted by value, at least one
    std::vector<OpacityPoint> opacity; // sorted by value, at least one
};

// The lowest and highest control-point value of either list.
std::array<double, 2> transferFunctionRange(const TransferFunction& tf);

// Colour and opacity at `value`: linear between the points, clamped to the
// end points (where points share a value, a step: the first on its left).
glm::vec4 transferFunctionAt(const TransferFunction& tf, double value);

// Throws Error naming tf.name when a list is empty, unsorted, or holds a
// value or component that is not finite or out of 0..1.
void checkTransferFunction(const TransferFunction& tf);

// The table the GPU reads: `rgba.size()` entries evenly spaced over [lo, hi]
// (entry i at lo + i × (hi − lo) / (size − 1)), read with linear
// interpolation between neighbouring entries, clamped at the ends.
struct TransferTable {
    float lo = 0.0f, hi = 1.0f;
    std::vector<glm::vec4> rgba; // colour (not premultiplied) and opacity per voxel of distance
    // For each entry i, the first entry j ≥ i whose opacity is above zero, or
    // rgba.size() when there is none: a value range [a, b] is fully
    // transparent when nextVisible[floor(u(a))] > ceil(u(b)) (one lookup; the
    // interpolation between two zero entries is zero).
    std::vector<uint32_t> nextVisible;

    // The table coordinate of a data value, clamped to [0, size − 1].
    float coordinate(float value) const;
    // What the shader reads at a data value.
    glm::vec4 lookup(float value) const;
    // True when every value in [a, b] maps to zero opacity (the test above).
    bool transparent(float a, float b) const;
};

constexpr uint32_t kTransferTableEntries = 256;

// Samples tf at the entries' values; lo and hi are transferFunctionRange(tf)
// (a single value widens to a range of 1 around it). Throws as checkTransferFunction.
TransferTable bakeTransferFunction(const TransferFunction& tf, uint32_t entries = kTransferTableEntries);

} // namespace isoscope
