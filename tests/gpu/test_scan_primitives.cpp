// The engine's device-wide scan, compaction and reduction (engine/compute)
// against CPU models, on random data at lengths around every boundary the
// passes have: empty, one element, one tile ± 1, many tiles, millions of
// elements, block sums in several levels (small spans make those at small
// lengths), and inputs split into several bindings (segments), at whatever
// subgroup size the device runs.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>

#include "compute/compact.h"
#include "compute/reduce.h"
#include "compute/scan.h"
#include "core/context.h"
#include "core/transfer.h"
#include "gpu_test_context.h"

using namespace isoscope;

namespace {

constexpr VkBufferUsageFlags kUsage =
    VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;

Buffer deviceBuffer(Context& context, uint64_t bytes, const char* what)
{
    return context.allocator().createBuffer(std::max<uint64_t>(bytes, 16), kUsage, MemoryUsage::DeviceLocal, what);
}

Buffer uploaded(Context& context, const std::vector<uint32_t>& words)
{
    Buffer buffer = deviceBuffer(context, words.size() * 4, "test input");
    if (!words.empty())
        uploadToBuffer(context, buffer, words.data(), words.size() * 4);
    return buffer;
}

// Random words: small counts (as extractors scan), sometimes zero so
// compaction has something to skip, or full 32-bit values so sums pass 2^32.
std::vector<uint32_t> randomWords(uint64_t count, bool large, std::mt19937& random)
{
    std::vector<uint32_t> words(count);
    for (uint32_t& w : words)
        w = large ? uint32_t(random()) : (random() % 3 == 0 ? 0u : random() % 16);
    return words;
}

// Lengths that cross every boundary of the passes on this device.
std::vector<uint64_t> interestingLengths(const ScanLayout& layout)
{
    uint64_t tile = layout.tileElements;
    return {0, 1, 2, 31, tile - 1, tile, tile + 1, 3 * tile + 5, 64 * tile - 1, 3'000'017};
}

struct ScanResult {
    std::vector<uint32_t> output;
    std::vector<uint64_t> totals;
};

ScanResult runScan(Context& context, uint32_t components, const std::vector<uint32_t>& input, const ScanOptions& options,
                   bool inPlace)
{
    uint64_t count = input.size() / components;
    ExclusiveScan scan(context, components, count, options);
    Buffer in = uploaded(context, input);
    Buffer out = inPlace ? Buffer{} : deviceBuffer(context, input.size() * 4, "test output");
    Buffer totals = deviceBuffer(context, 16, "test totals");
    const Buffer& target = inPlace ? in : out;
    test::runGraph(context, [&](RenderGraph& graph) {
        ResourceId inId = graph.importBuffer("input", in.buffer);
        ResourceId outId = inPlace ? inId : graph.importBuffer("output", target.buffer);
        scan.addPasses(graph, {inId}, {outId}, count, {graph.importBuffer("totals", totals.buffer)});
    });
    ScanResult result;
    result.output = downloadBufferAs<uint32_t>(context, target, input.size());
    result.totals = downloadBufferAs<uint64_t>(context, totals, components);
    return result;
}

void checkScan(Context& context, uint32_t components, uint64_t count, bool large, const ScanOptions& options,
               bool inPlace, std::mt19937& random)
{
    INFO("components " << components << " count " << count << (large ? " large values" : " small values")
                       << (inPlace ? " in place" : "") << " binding limit " << options.maxBindingBytes
                       << " span " << options.span);
    std::vector<uint32_t> input = randomWords(count * components, large, random);
    ScanResult result = runScan(context, components, input, options, inPlace);
    for (uint32_t c = 0; c < components; ++c) {
        uint64_t running = 0;
        uint64_t mismatches = 0, firstMismatch = 0;
        for (uint64_t i = 0; i < count; ++i) {
            if (result.output[i * components + c] != uint32_t(running) && mismatches++ == 0)
                firstMismatch = i;
            running += input[i * components + c];
        }
        INFO("component " << c << " first mismatch at " << firstMismatch);
        REQUIRE(mismatches == 0);
        REQUIRE(result.totals[c] == running);
    }
}

void checkCompaction(Context& context, uint32_t components, uint64_t count, const ScanOptions& options,
                     std::mt19937& random)
{
    INFO("components " << components << " count " << count << " binding limit " << options.maxBindingBytes
                       << " span " << options.span);
    std::vector<uint32_t> input = randomWords(count * components, false, random);
    std::vector<uint32_t> expected;
    for (uint64_t i = 0; i < count; ++i)
        if (input[i * components] != 0 || (components == 2 && input[i * components + 1] != 0))
            expected.push_back(uint32_t(i));

    StreamCompaction compact(context, components, count, options);
    Buffer in = uploaded(context, input);
    Buffer indices = deviceBuffer(context, count * 4, "test indices");
    Buffer selected = deviceBuffer(context, 8, "test count");
    test::runGraph(context, [&](RenderGraph& graph) {
        compact.addPasses(graph, {graph.importBuffer("input", in.buffer)}, count,
                          {graph.importBuffer("indices", indices.buffer)}, {graph.importBuffer("count", selected.buffer)});
    });
    REQUIRE(downloadBufferAs<uint64_t>(context, selected, 1)[0] == expected.size());
    REQUIRE(downloadBufferAs<uint32_t>(context, indices, expected.size()) == expected);
}

void checkReduction(Context& context, uint32_t components, uint64_t count, const ScanOptions& options,
                    std::mt19937& random)
{
    INFO("components " << components << " count " << count << " span " << options.span);
    std::vector<uint32_t> input = randomWords(count * components, true, random);
    Reduction sum(context, components, count, options);
    Buffer in = uploaded(context, input);
    Buffer totals = deviceBuffer(context, 16, "test totals");
    test::runGraph(context, [&](RenderGraph& graph) {
        sum.addPasses(graph, {graph.importBuffer("input", in.buffer)}, count, {graph.importBuffer("totals", totals.buffer)});
    });
    std::vector<uint64_t> got = downloadBufferAs<uint64_t>(context, totals, components);
    for (uint32_t c = 0; c < components; ++c) {
        uint64_t expected = 0;
        for (uint64_t i = 0; i < count; ++i)
            expected += input[i * components + c];
        REQUIRE(got[c] == expected);
    }
}

} // namespace

TEST_CASE("exclusive scan matches a CPU scan at every length boundary, for uint and uvec2", "[gpu][scan][primitives]")
{
    Context& context = test::gpuContext();
    std::mt19937 random(7);
    for (uint32_t components : {1u, 2u})
        for (uint64_t count : interestingLengths(scanLayout(context, components, {})))
            checkScan(context, components, count, false, {}, false, random);
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("exclusive scan keeps 64-bit totals exact past 2^32 and wraps prefixes modulo 2^32", "[gpu][scan][primitives]")
{
    Context& context = test::gpuContext();
    std::mt19937 random(8);
    uint64_t tile = scanLayout(context, 2, {}).tileElements;
    for (uint32_t components : {1u, 2u})
        for (uint64_t count : {uint64_t(5), tile + 1, 200 * tile + 3})
            checkScan(context, components, count, true, {}, false, random);
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("exclusive scan works in place and across several bindings (segments)", "[gpu][scan][primitives]")
{
    Context& context = test::gpuContext();
    std::mt19937 random(9);
    for (uint32_t components : {1u, 2u}) {
        uint64_t tile = scanLayout(context, components, {}).tileElements;
        ScanOptions threeTiles{3 * tile * 4 * components}; // segments of three tiles
        REQUIRE(scanLayout(context, components, threeTiles).segmentElements == 3 * tile);
        for (uint64_t count : {3 * tile - 1, 3 * tile, 3 * tile + 1, 20 * tile + 17}) {
            checkScan(context, components, count, false, threeTiles, false, random);
            checkScan(context, components, count, true, threeTiles, true, random);
        }
        checkScan(context, components, 5 * tile + 3, false, {}, true, random);
    }
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("both scan algorithms match a CPU scan: reduce-then-scan, and the single pass with forced fallbacks",
          "[gpu][scan][primitives]")
{
    Context& context = test::gpuContext();
    std::mt19937 random(11);
    for (uint32_t components : {1u, 2u}) {
        uint64_t tile = scanLayout(context, components, {}).tileElements;
        ScanOptions reduceThenScan;
        reduceThenScan.algorithm = ScanAlgorithm::ReduceThenScan;
        for (uint64_t count : interestingLengths(scanLayout(context, components, {})))
            checkScan(context, components, count, false, reduceThenScan, false, random);
        // Every look-back reduces tiles 2, 5, 8, ... (every tile, with 1)
        // itself: the fallback's sums must equal what the tiles publish,
        // including 64-bit ones, across segments too; with either form of
        // tile state (64-bit words only where the device has them).
        for (bool packed : {true, false})
            for (uint32_t every : {1u, 3u}) {
                ScanOptions forced;
                forced.algorithm = ScanAlgorithm::SinglePass;
                forced.forceFallbackEvery = every;
                forced.packedTileStates = packed;
                INFO((packed ? "64-bit tile states where the device has them" : "32-bit word tile states"));
                for (uint64_t count : {tile + 1, 3 * tile, 37 * tile + 5})
                    checkScan(context, components, count, count % 2 == 1, forced, false, random);
                forced.maxBindingBytes = 4 * tile * 4 * components; // segments of four tiles
                checkScan(context, components, 13 * tile + 7, true, forced, false, random);
            }
    }
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("the single pass keeps 64-bit tile states where the device has 64-bit atomics and the totals fit, "
          "and scans alike with either form",
          "[gpu][scan][primitives]")
{
    Context& context = test::gpuContext();
    const auto& features = context.info().features;
    const bool device64 = features.shaderInt64 && features.shaderBufferInt64Atomics;
    INFO("device has shaderInt64 and shaderBufferInt64Atomics: " << device64);
    // Values modulo 2^62: totals of more than 2^30 uint32 elements could pass
    // that, so such scans keep 32-bit words; a compaction counts at most its
    // length and may always pack.
    REQUIRE(SinglePassScan::usesPackedStates(context, false, uint64_t(1) << 30, {}) == device64);
    REQUIRE_FALSE(SinglePassScan::usesPackedStates(context, false, (uint64_t(1) << 30) + 1, {}));
    REQUIRE(SinglePassScan::usesPackedStates(context, true, uint64_t(1) << 33, {}) == device64);
    ScanOptions words;
    words.packedTileStates = false;
    REQUIRE_FALSE(SinglePassScan::usesPackedStates(context, false, 100, words));

    std::mt19937 random(13);
    for (bool packed : {true, false})
        for (uint32_t components : {1u, 2u}) {
            ScanOptions options;
            options.algorithm = ScanAlgorithm::SinglePass;
            options.packedTileStates = packed;
            ExclusiveScan scan(context, components, 100, options);
            REQUIRE(scan.singlePass()->packedStates() == (packed && device64));
            uint64_t tile = scan.singlePass()->layout().tileElements;
            for (uint64_t count : {tile - 1, 2 * tile + 1, 50 * tile + 3})
                for (bool large : {false, true})
                    checkScan(context, components, count, large, options, false, random);
            checkCompaction(context, components, 20 * tile + 9, options, random);
        }
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("the single pass refuses to scan in place when asked for explicitly", "[gpu][scan][primitives]")
{
    Context& context = test::gpuContext();
    ScanOptions single;
    single.algorithm = ScanAlgorithm::SinglePass;
    ExclusiveScan scan(context, 1, 100, single);
    Buffer data = deviceBuffer(context, 400, "test data");
    RenderGraph graph(context);
    ResourceId id = graph.importBuffer("data", data.buffer);
    REQUIRE_THROWS_WITH(scan.addPasses(graph, {id}, {id}, 100), Catch::Matchers::Contains("cannot scan in place"));
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("stream compaction lists the nonzero elements in order, with their count", "[gpu][compact][primitives]")
{
    Context& context = test::gpuContext();
    std::mt19937 random(10);
    for (uint32_t components : {1u, 2u}) {
        uint64_t tile = scanLayout(context, components, {}).tileElements;
        ScanOptions segmented{2 * tile * 4 * components};
        ScanOptions reduceThenScan;
        reduceThenScan.algorithm = ScanAlgorithm::ReduceThenScan;
        ScanOptions forced;
        forced.forceFallbackEvery = 2;
        for (ScanOptions options : {ScanOptions{}, segmented, reduceThenScan, forced})
            for (uint64_t count : interestingLengths(scanLayout(context, components, options))) {
                if (count > 1'000'000 && options.maxBindingBytes)
                    continue; // the segment path is covered by the shorter lengths
                checkCompaction(context, components, count, options, random);
            }
    }
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("reduction sums uint and uvec2 elements into exact 64-bit totals", "[gpu][reduce][primitives]")
{
    Context& context = test::gpuContext();
    std::mt19937 random(11);
    for (uint32_t components : {1u, 2u})
        for (uint64_t count : interestingLengths(scanLayout(context, components, {})))
            checkReduction(context, components, count, {}, random);
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("scan, compaction and reduction stay exact through several levels of block sums",
          "[gpu][scan][compact][reduce][primitives]")
{
    Context& context = test::gpuContext();
    std::mt19937 random(12);
    for (uint32_t span : {2u, 3u, 7u}) {
        ScanOptions options;
        options.span = span;
        for (uint32_t components : {1u, 2u}) {
            ScanLayout layout = scanLayout(context, components, options);
            REQUIRE(layout.span == span);
            uint64_t tile = layout.tileElements;
            // A full top level, one more block (a second level), a third level, and many levels.
            std::vector<uint64_t> lengths{span * tile, span * tile + 1, span * span * tile + 1, 100 * tile + 3};
            REQUIRE(scanLevelBlocks(layout, lengths[1]).size() == 2);
            REQUIRE(scanLevelBlocks(layout, lengths[2]).size() == 3);
            REQUIRE(scanLevelBlocks(layout, lengths[3]).size() >= 3);
            for (uint64_t count : lengths) {
                checkScan(context, components, count, true, options, count % 2 == 1, random);
                checkCompaction(context, components, count, options, random);
                checkReduction(context, components, count, options, random);
            }
        }
    }
    REQUIRE_NO_VALIDATION_MESSAGES();
}
