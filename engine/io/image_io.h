#pragma once
// Images the engine writes: 8-bit RGBA, row 0 at the top, as PNG.
#include <cstdint>
#include <filesystem>
#include <vector>

#include "io/output_file.h"

namespace isoscope {

struct RgbaImage {
    uint32_t width = 0;
    uint32_t height = 0;
    std::vector<uint8_t> pixels; // width × height × 4, rows top to bottom

    const uint8_t* at(uint32_t x, uint32_t y) const { return &pixels[(size_t(y) * width + x) * 4]; }
};

// Throws Error naming the file when it cannot be written, leaving no partial
// file (io/output_file.h; "-" is standard output).
void writePng(const RgbaImage& image, const std::filesystem::path& path, IfExists ifExists = IfExists::Replace);

} // namespace isoscope
