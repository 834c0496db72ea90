#include "extract/auto_method.h"

#include <cmath>
#include <cstdint>
#include <cstdio>

#include "extract/case_table.h"

namespace isoscope {

namespace {

// The measured boundary (docs/BENCHMARKS.md, "Where each method wins, as
// landed"): below 512³ points scan was faster or equal on every volume; from
// 512³ up histopyramid was faster where the surface has under 0.95%
// triangles per cell and scan from 1.48% up.
constexpr uint64_t kHistoPyramidFromPoints = uint64_t(512) * 512 * 512;
constexpr double kHistoPyramidBelowDensity = 0.012;
constexpr uint64_t kSampledCells = uint64_t(1) << 17; // a few ms at 512³ and up

bool inside(float value, float iso) { return std::isfinite(value) && value >= iso; }

} // namespace

std::optional<double> estimateTriangleDensity(const Volume& volume, float iso)
{
    if (volume.data.size() != volume.byteSize() || volume.dims[0] < 2 || volume.dims[1] < 2 || volume.dims[2] < 2)
        return std::nullopt;
    std::array<uint64_t, 3> cells{volume.dims[0] - 1u, volume.dims[1] - 1u, volume.dims[2] - 1u};
    uint64_t all = cells[0] * cells[1] * cells[2];
    const MarchingCubesCaseTable& table = marchingCubesCases();
    auto trianglesAt = [&](uint64_t cell) {
        uint32_t x = uint32_t(cell % cells[0]), y = uint32_t(cell / cells[0] % cells[1]),
                 z = uint32_t(cell / cells[0] / cells[1]);
        int caseIndex = 0;
        for (int corner = 0; corner < kCubeCornerCount; ++corner) {
            std::array<uint8_t, 3> o = cubeCornerOffset(corner);
            if (inside(volume.value(x + o[0], y + o[1], z + o[2]), iso))
                caseIndex |= 1 << corner;
        }
        return uint64_t(table[caseIndex].triangleCount);
    };
    uint64_t triangles = 0;
    if (all <= kSampledCells) {
        for (uint64_t cell = 0; cell < all; ++cell)
            triangles += trianglesAt(cell);
        return double(triangles) / double(all);
    }
    // Cells drawn at random (a fixed seed): a lattice of cells can miss or hit a flat surface whole.
    uint64_t state = 0x9E3779B97F4A7C15ull;
    for (uint64_t i = 0; i < kSampledCells; ++i) {
        uint64_t z = (state += 0x9E3779B97F4A7C15ull); // splitmix64
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        z ^= z >> 31;
        triangles += trianglesAt(z % all);
    }
    return double(triangles) / double(kSampledCells);
}

AutoMethodChoice chooseAutoMethod(const DeviceInfo& device, const Volume& volume, std::optional<float> iso,
                                  const ExtractOptions& options)
{
    // What the block method needs (block_extractor.cpp): its narrow shared
    // arrays, workgroups of 32 invocations, and a block row in one word.
    bool blockRuns = device.features.shaderInt8 && device.features.shaderInt16 && device.maxWorkgroupInvocations() >= 32 &&
                     options.blockSize[0] <= 32;
    if (blockRuns || !options.analyticField.empty())
        return {"block", "block: the fastest method on every volume measured (docs/BENCHMARKS.md, \"Where each method wins\")"};
    std::string noBlock = "block cannot run here (it needs 8- and 16-bit shader integers, 32-invocation workgroups "
                          "and blocks at most 32 wide); ";
    const std::string measured = " (docs/BENCHMARKS.md, \"Where each method wins, as landed\", H100, 2026-11-26)";
    if (volume.sampleCount() < kHistoPyramidFromPoints)
        return {"scan", "scan: " + noBlock + "below 512³ points scan was as fast as histopyramid or faster on every "
                        "volume measured (Cayley 256³ 1.06×, the engine CT 1.16-1.23×)" + measured};
    std::optional<double> density = iso ? estimateTriangleDensity(volume, *iso) : std::nullopt;
    if (!density)
        return {"scan", "scan: " + noBlock +
                            (iso ? "the samples are not on the host to estimate the surface's density"
                                 : "the method is chosen before the isovalue (an extraction prepared for any)") +
                            ", and scan needs a tenth of histopyramid's memory (histopyramid was faster only on sparse "
                            "surfaces, by up to 1.38×; scan on dense ones by 1.27×)" + measured};
    char percent[32];
    std::snprintf(percent, sizeof percent, "%.2f%%", 100.0 * *density);
    if (*density < kHistoPyramidBelowDensity)
        return {"histopyramid", "histopyramid: " + noBlock + "an estimated " + percent +
                                    " triangles per cell, under 1.2%, where histopyramid was 1.04-1.38× faster than "
                                    "scan from 512³ points up (not on the engine CT at iso 160: 0.33%, scan 1.05×)" +
                                    measured};
    return {"scan", "scan: " + noBlock + "an estimated " + percent +
                        " triangles per cell, 1.2% or more, where scan was 1.27× faster than histopyramid (the dense "
                        "gyroid, the engine CT at iso 60)" + measured};
}

ExtractOptions resolveAutoMethod(const DeviceInfo& device, const Volume& volume, std::optional<float> iso,
                                 ExtractOptions options)
{
    if (options.method == "auto") {
        AutoMethodChoice choice = chooseAutoMethod(device, volume, iso, options);
        options.method = choice.method;
        options.methodChoice = choice.why;
    }
    return options;
}

} // namespace isoscope
