// The block method's value-range pass (BlockValueRanges) against ranges
// computed on the CPU, block by block: from the image and from the raw words,
// over each block's voxels and over its cells' samples, on dims that cut the
// walk's workgroups everywhere (rows wider than a workgroup's run, partial
// lanes, tiles and layer walks, volumes two samples thin) and with non-finite
// samples.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "core/context.h"
#include "core/transfer.h"
#include "extract/block/min_max.h"
#include "gpu_test_context.h"
#include "volume/gpu_volume.h"
#include "volume/region_upload.h"

using namespace isoscope;

namespace {

float halfToFloat(uint32_t bits)
{
    float sign = (bits & 0x8000u) ? -1.0f : 1.0f;
    uint32_t exponent = (bits >> 10) & 0x1Fu, mantissa = bits & 0x3FFu;
    if (exponent == 31)
        return mantissa ? std::numeric_limits<float>::quiet_NaN() : sign * std::numeric_limits<float>::infinity();
    if (exponent == 0)
        return sign * std::ldexp(float(mantissa), -24);
    return sign * std::ldexp(float(mantissa + 1024), int(exponent) - 25);
}

// Every half that is not NaN, ascending: where a range rounded outward must land.
const std::vector<float>& halfValues()
{
    static const std::vector<float> values = [] {
        std::vector<float> v;
        for (uint32_t bits = 0; bits < 0x10000u; ++bits)
            if (float f = halfToFloat(bits); !std::isnan(f))
                v.push_back(f);
        std::sort(v.begin(), v.end());
        return v;
    }();
    return values;
}

float halfBelow(float v) { return *(std::upper_bound(halfValues().begin(), halfValues().end(), v) - 1); }
float halfAbove(float v) { return *std::lower_bound(halfValues().begin(), halfValues().end(), v); }

// Samples of any type from a function, with the function's value cast to the type.
Volume makeVolume(std::array<uint32_t, 3> dims, ScalarType type, bool nonFinite)
{
    Volume volume;
    volume.dims = dims;
    volume.type = type;
    volume.data.resize(volume.byteSize());
    for (uint32_t z = 0; z < dims[2]; ++z)
        for (uint32_t y = 0; y < dims[1]; ++y)
            for (uint32_t x = 0; x < dims[0]; ++x) {
                uint64_t i = volume.index(x, y, z);
                // Varies along every axis, with steps at every sample so that
                // a missed row, slice or column changes some block's range.
                uint32_t hash = (x * 73856093u) ^ (y * 19349663u) ^ (z * 83492791u);
                float v = float(hash % 251u) + 0.25f * float((x + 2 * y + 3 * z) % 7u);
                switch (type) {
                case ScalarType::UInt8: volume.data[i] = std::byte(uint8_t(hash % 256u)); break;
                case ScalarType::UInt16: {
                    uint16_t q = uint16_t(hash % 65536u);
                    std::memcpy(&volume.data[2 * i], &q, 2);
                    break;
                }
                case ScalarType::Int16: {
                    int16_t q = int16_t(int32_t(hash % 65535u) - 32767);
                    std::memcpy(&volume.data[2 * i], &q, 2);
                    break;
                }
                case ScalarType::Float32: {
                    if (nonFinite && hash % 97u == 0)
                        v = std::array<float, 3>{std::numeric_limits<float>::quiet_NaN(),
                                                 std::numeric_limits<float>::infinity(),
                                                 -std::numeric_limits<float>::infinity()}[hash % 3u];
                    std::memcpy(&volume.data[4 * i], &v, 4);
                    break;
                }
                }
            }
    return volume;
}

// Block b's range on the CPU: its voxels, or with cells also the samples one
// past its upper faces; a non-finite sample makes the minimum -inf.
std::array<float, 2> cpuRange(const Volume& volume, std::array<uint32_t, 3> block, std::array<uint32_t, 3> b,
                              RangeCoverage coverage)
{
    uint32_t reach = coverage == RangeCoverage::Cells ? 1 : 0;
    std::array<uint32_t, 3> first, end;
    for (int a = 0; a < 3; ++a) {
        first[a] = b[a] * block[a];
        end[a] = std::min(first[a] + block[a] + reach, volume.dims[a]);
    }
    float low = std::numeric_limits<float>::infinity(), high = -low;
    for (uint32_t z = first[2]; z < end[2]; ++z)
        for (uint32_t y = first[1]; y < end[1]; ++y)
            for (uint32_t x = first[0]; x < end[0]; ++x) {
                float v = volume.value(x, y, z);
                if (std::isfinite(v)) {
                    low = std::min(low, v);
                    high = std::max(high, v);
                } else {
                    low = -std::numeric_limits<float>::infinity();
                }
            }
    return {low, high};
}

// Block b's range as the pass stored it.
std::array<float, 2> storedRange(const BlockValueRanges& ranges, const std::vector<uint32_t>& stored,
                                 std::array<uint32_t, 3> b)
{
    std::array<uint32_t, 3> counts = ranges.blockCounts();
    if (ranges.byteRanges()) {
        uint64_t word = b[0] / 2 + uint64_t(counts[0] + 1) / 2 * (b[1] + uint64_t(counts[1]) * b[2]);
        uint32_t bits = stored[word] >> (16 * (b[0] & 1));
        return {float(bits & 0xFFu), float((bits >> 8) & 0xFFu)};
    }
    uint32_t bits = stored[b[0] + uint64_t(counts[0]) * (b[1] + uint64_t(counts[1]) * b[2])];
    return {halfToFloat(bits & 0xFFFFu), halfToFloat(bits >> 16)};
}

// Block b's range from the CPU as the pass stores it: bytes exact, halves rounded outward.
std::array<float, 2> expectedRange(const Volume& volume, const BlockValueRanges& ranges, std::array<uint32_t, 3> block,
                                   std::array<uint32_t, 3> b, RangeCoverage coverage)
{
    std::array<float, 2> range = cpuRange(volume, block, b, coverage);
    if (ranges.byteRanges())
        return range;
    return {halfBelow(range[0]), halfAbove(range[1])};
}

std::string describeCase(const Volume& volume, std::array<uint32_t, 3> block, RangeCoverage coverage, bool words)
{
    return std::string(scalarName(volume.type)) + " " + std::to_string(volume.dims[0]) + "x" +
           std::to_string(volume.dims[1]) + "x" + std::to_string(volume.dims[2]) + ", blocks " +
           std::to_string(block[0]) + "x" + std::to_string(block[1]) + "x" + std::to_string(block[2]) +
           (coverage == RangeCoverage::Cells ? ", cells" : ", voxels") +
           (words ? ", raw words requested" : ", image");
}

// Runs the pass on `volume` (reading the raw words where `words` and the
// layout allows) and compares every block's range with the CPU's.
void checkRanges(const Volume& volume, std::array<uint32_t, 3> block, RangeCoverage coverage, bool words,
                 RangeWalkShape shape = {})
{
    Context& context = test::gpuContext();
    GpuVolume gpuVolume(context, volume, GpuVolumeUsage{.image = true, .buffer = words, .bufferInRanges = true});
    BlockValueRanges ranges(context, FieldSource{&volume, &gpuVolume}, block, coverage, false, shape);
    ranges.computeNow();
    std::vector<uint32_t> stored =
        downloadBufferAs<uint32_t>(context, ranges.buffer(), ranges.buffer().size / 4);

    std::array<uint32_t, 3> counts = ranges.blockCounts();
    uint64_t mismatches = 0;
    for (uint32_t bz = 0; bz < counts[2]; ++bz)
        for (uint32_t by = 0; by < counts[1]; ++by)
            for (uint32_t bx = 0; bx < counts[0]; ++bx) {
                std::array<float, 2> expected = expectedRange(volume, ranges, block, {bx, by, bz}, coverage);
                std::array<float, 2> got = storedRange(ranges, stored, {bx, by, bz});
                if (got != expected && mismatches++ < 5)
                    UNSCOPED_INFO("block " << bx << "," << by << "," << bz << ": got [" << got[0] << ", " << got[1]
                                           << "], expected [" << expected[0] << ", " << expected[1] << "]");
            }
    INFO(describeCase(volume, block, coverage, words) << ", walk of " << shape.words << " words, " << shape.rows
                                                      << " rows, " << shape.layers << " layers");
    REQUIRE(mismatches == 0);
}

// Whether block b's range covers a sample of `region` (its voxels, with
// cells also the samples one past its upper faces, as cpuRange reads).
bool blockHoldsRegion(const Volume& volume, std::array<uint32_t, 3> block, std::array<uint32_t, 3> b,
                      RangeCoverage coverage, const VolumeRegion& region)
{
    uint32_t reach = coverage == RangeCoverage::Cells ? 1 : 0;
    for (int a = 0; a < 3; ++a) {
        uint32_t first = b[a] * block[a], end = std::min(first + block[a] + reach, volume.dims[a]);
        if (end <= region.offset[a] || first >= region.offset[a] + region.extent[a])
            return false;
    }
    return true;
}

constexpr uint32_t kUntouched = 0xDEADBEEFu; // no range: its minimum above its maximum, as halves and as bytes

// Uploads new samples for `region` (another place's, so that ranges change)
// and runs the region pass over ranges filled with kUntouched: the blocks
// whose ranges hold the region's samples must equal the CPU's over the new
// samples, every other stored word must still be kUntouched.
void checkRegionPass(Volume volume, std::array<uint32_t, 3> block, RangeCoverage coverage, bool words,
                     const VolumeRegion& region)
{
    Context& context = test::gpuContext();
    GpuVolume gpuVolume(context, volume, GpuVolumeUsage{.image = true, .buffer = words, .bufferInRanges = true});
    BlockValueRanges ranges(context, FieldSource{&volume, &gpuVolume}, block, coverage);
    const size_t sampleBytes = scalarSize(volume.type);
    std::vector<std::byte> samples;
    for (uint32_t z = 0; z < region.extent[2]; ++z)
        for (uint32_t y = 0; y < region.extent[1]; ++y)
            for (uint32_t x = 0; x < region.extent[0]; ++x) {
                uint64_t from = volume.index((x * 7 + 3) % volume.dims[0], (y * 5 + 1) % volume.dims[1],
                                             (z * 3 + 2) % volume.dims[2]);
                samples.insert(samples.end(), volume.data.begin() + from * sampleBytes,
                               volume.data.begin() + (from + 1) * sampleBytes);
            }
    writeRegion(volume, region, samples.data());
    fillBuffer(context, ranges.buffer(), kUntouched);
    RenderGraph upload(context), derive(context);
    Buffer staging = addRegionUploadPass(upload, context, gpuVolume, region, samples.data());
    ranges.addRegionPass(derive, region, "region ranges");
    upload.compile();
    derive.compile();
    context.submitAndWait([&](VkCommandBuffer cmd) {
        upload.record(cmd);
        derive.record(cmd);
    });
    std::vector<uint32_t> stored = downloadBufferAs<uint32_t>(context, ranges.buffer(), ranges.buffer().size / 4);

    const std::vector<uint32_t> untouched(stored.size(), kUntouched);
    std::array<uint32_t, 3> counts = ranges.blockCounts();
    uint64_t mismatches = 0, rewritten = 0;
    for (uint32_t bz = 0; bz < counts[2]; ++bz)
        for (uint32_t by = 0; by < counts[1]; ++by)
            for (uint32_t bx = 0; bx < counts[0]; ++bx) {
                std::array<uint32_t, 3> b{bx, by, bz};
                bool holds = blockHoldsRegion(volume, block, b, coverage, region);
                // Byte ranges pair blocks along x in one word, written whole.
                if (ranges.byteRanges()) {
                    std::array<uint32_t, 3> pair{bx ^ 1u, by, bz};
                    holds = holds || (pair[0] < counts[0] && blockHoldsRegion(volume, block, pair, coverage, region));
                }
                std::array<float, 2> got = storedRange(ranges, stored, b);
                std::array<float, 2> expected = holds ? expectedRange(volume, ranges, block, b, coverage)
                                                      : storedRange(ranges, untouched, b);
                rewritten += holds;
                if (got != expected && mismatches++ < 5)
                    UNSCOPED_INFO("block " << bx << "," << by << "," << bz << (holds ? " (holds region)" : "")
                                           << ": got [" << got[0] << ", " << got[1] << "], expected ["
                                           << expected[0] << ", " << expected[1] << "]");
            }
    INFO(describeCase(volume, block, coverage, words) << ", region at " << region.offset[0] << ","
                                                      << region.offset[1] << "," << region.offset[2] << " of "
                                                      << region.extent[0] << "x" << region.extent[1] << "x"
                                                      << region.extent[2]);
    REQUIRE(mismatches == 0);
    REQUIRE(rewritten > 0);
    REQUIRE(rewritten < uint64_t(counts[0]) * counts[1] * counts[2]);
}

} // namespace

TEST_CASE("block value ranges equal the CPU's over every block's cells or voxels, from the image and the raw words",
          "[block][ranges]")
{
    struct Case {
        std::array<uint32_t, 3> dims;
        ScalarType type;
    };
    // Rows wider than a workgroup's run (2056 uint16 are 257 lanes of 16
    // bytes, 4088 uint8 511 lanes of 8 bytes, 4092 uint8 1023 lanes of one
    // word, 519 texels; 3D images may be limited to 4096 a side), tiles and
    // layer walks cut in y and z, and volumes two samples thin.
    std::vector<Case> cases = {
        {{4088, 3, 5}, ScalarType::UInt8},    {{4092, 2, 3}, ScalarType::UInt8},
        {{2056, 3, 2}, ScalarType::UInt16},   {{519, 7, 3}, ScalarType::Float32},
        {{300, 5, 9}, ScalarType::UInt8},     {{37, 101, 71}, ScalarType::Float32},
        {{36, 101, 71}, ScalarType::UInt8},   {{36, 21, 17}, ScalarType::Int16},
        {{38, 19, 40}, ScalarType::UInt16},   {{2, 17, 9}, ScalarType::Float32},
        {{17, 2, 9}, ScalarType::UInt8},      {{16, 9, 2}, ScalarType::UInt8},
        {{2, 2, 2}, ScalarType::Int16},       {{1028, 3, 3}, ScalarType::Float32},
    };
    for (size_t i = 0; i < cases.size(); ++i) {
        Volume volume = makeVolume(cases[i].dims, cases[i].type, true);
        // The paper's block everywhere; wider and narrower ones (a block of
        // two lanes, chunks of four blocks) on every third case.
        std::vector<std::array<uint32_t, 3>> blocks = {{8, 4, 4}};
        if (i % 3 == 0)
            blocks.insert(blocks.end(), {{16, 2, 4}, {4, 4, 4}});
        for (std::array<uint32_t, 3> block : blocks)
            for (RangeCoverage coverage : {RangeCoverage::Cells, RangeCoverage::Voxels})
                for (bool words : {true, false})
                    checkRanges(volume, block, coverage, words);
    }
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("block value ranges at block sizes that are not powers of two, and two voxels", "[block][ranges]")
{
    for (ScalarType type : {ScalarType::UInt8, ScalarType::UInt16, ScalarType::Float32}) {
        Volume volume = makeVolume({36, 23, 19}, type, true);
        for (std::array<uint32_t, 3> block :
             {std::array<uint32_t, 3>{3, 5, 7}, {2, 2, 2}, {12, 3, 5}, {32, 2, 2}})
            // The extractor's coverage (the raycasters use cubes); 1x1x1 blocks
            // are in the extraction tests (here they cost a minute of lavapipe).
            for (bool words : {true, false})
                checkRanges(volume, block, RangeCoverage::Cells, words);
    }
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("block value ranges from the raw words equal the CPU's for every walk shape", "[block][ranges]")
{
    struct Case {
        std::array<uint32_t, 3> dims;
        ScalarType type;
    };
    // Rows of 16-word multiples: 1040 float32 are 65 lanes of 16 words (two
    // workgroups along x, the second with one lane), 48 float32 three lanes
    // of 16 words; 1056 uint8 and 96 int16 take 8-word lanes (4 and 2 blocks
    // a chunk). Walks that end past the volume in y and z.
    std::vector<Case> cases = {{{1040, 9, 11}, ScalarType::Float32},
                               {{48, 37, 29}, ScalarType::Float32},
                               {{1056, 13, 9}, ScalarType::UInt8},
                               {{96, 23, 19}, ScalarType::Int16}};
    const std::vector<RangeWalkShape> shapes = {{4, 1, 4}, {4, 2, 2}, {4, 4, 4}, {8, 1, 2}, {8, 2, 4},
                                                {16, 1, 4}, {16, 2, 1}, {2, 3, 3}};
    for (const Case& c : cases) {
        Volume volume = makeVolume(c.dims, c.type, true);
        for (RangeWalkShape shape : shapes) {
            if (c.type != ScalarType::Float32 && shape.words == 16)
                continue; // more than 4 blocks a chunk
            for (RangeCoverage coverage : {RangeCoverage::Cells, RangeCoverage::Voxels})
                checkRanges(volume, {8, 4, 4}, coverage, true, shape);
        }
    }
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("a region's range pass rewrites the blocks whose ranges hold the region's new samples and no others",
          "[block][ranges][region]")
{
    struct Case {
        std::array<uint32_t, 3> dims;
        ScalarType type;
    };
    // Rows of whole words (raw words read) and not (the image read), byte
    // ranges (uint8 cells), walks of several workgroups along x (300 uint8).
    std::vector<Case> cases = {{{37, 41, 29}, ScalarType::Float32}, {{40, 21, 30}, ScalarType::UInt8},
                               {{38, 19, 40}, ScalarType::UInt16}, {{300, 9, 17}, ScalarType::UInt8},
                               {{36, 21, 17}, ScalarType::Int16}};
    for (const Case& c : cases) {
        Volume volume = makeVolume(c.dims, c.type, false);
        // Inside on block boundaries (cells reach back a block), a corner
        // sample, and a box reaching the far faces.
        std::vector<VolumeRegion> regions = {
            {{8, 2, 8}, {9, 5, 5}}, {{0, 0, 0}, {1, 1, 1}},
            {{c.dims[0] - 11, c.dims[1] - 3, c.dims[2] - 6}, {11, 3, 6}}};
        for (const VolumeRegion& region : regions)
            for (std::array<uint32_t, 3> block : {std::array<uint32_t, 3>{8, 4, 4}, {8, 8, 8}})
                for (RangeCoverage coverage : {RangeCoverage::Cells, RangeCoverage::Voxels})
                    for (bool words : {true, false})
                        checkRegionPass(volume, block, coverage, words, region);
    }
    REQUIRE_NO_VALIDATION_MESSAGES();
}
