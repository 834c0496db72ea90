// The two ceilings streamed extraction is measured against
// (extract/stream/copy_bandwidth.h, source_bandwidth.h): the pinned copy
// rate, and the source read and uploaded with nothing extracted.
#include <cstring>
#include <mutex>
#include <set>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include "core/error.h"
#include "core/host_import.h"
#include "extract/stream/copy_bandwidth.h"
#include "extract/stream/source_bandwidth.h"
#include "gpu_test_context.h"
#include "volume/volume_source.h"

using namespace isoscope;
using namespace isoscope::test;

namespace {

Volume byteGrid(uint32_t nx, uint32_t ny, uint32_t nz)
{
    Volume grid;
    grid.dims = {nx, ny, nz};
    grid.type = ScalarType::UInt8;
    grid.source = "planes by number";
    return grid;
}

} // namespace

TEST_CASE("the copy ceiling times its copies on each queue it is asked for", "[stream]")
{
    Context& context = gpuContext();
    CopyBandwidth main = measureUploadBandwidth(context, 1 << 20, 3);
    CHECK(main.bytes == (1u << 20));
    CHECK(main.copies == 3);
    CHECK(main.role == QueueRole::Main);
    if (context.info().timestampValidBits > 0) {
        CHECK(main.gpuMs > 0);
        CHECK(main.bytesPerSecond() > 0);
    }
    CopyBandwidth transfer = measureUploadBandwidth(context, 1 << 20, 2, QueueRole::Transfer, 1);
    CHECK(transfer.role == QueueRole::Transfer);
    CHECK(transfer.copies == 2);
    REQUIRE_THROWS_WITH(measureUploadBandwidth(context, 1 << 20, 1, QueueRole::Transfer,
                                               context.transferQueueCount() + 1),
                        Catch::Contains("the device has"));
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("the source ceiling reads every plane once, in order, into its staging buffers in turn", "[stream]")
{
    Volume grid = byteGrid(16, 16, 37); // pieces of 5 planes: 8, the last of 2
    std::mutex mutex;
    std::vector<std::pair<uint32_t, uint32_t>> reads;
    std::vector<std::byte*> destinations;
    auto source = makeCallbackSource(grid, [&](uint32_t first, uint32_t count, std::byte* out) {
        std::lock_guard lock(mutex);
        reads.emplace_back(first, count);
        destinations.push_back(out);
        for (uint32_t z = 0; z < count; ++z)
            std::memset(out + z * 256, int(first + z), 256);
    });
    SourceBandwidth bound = measureSourceUpload(gpuContext(), *source, 5 * 256 + 100, 3);
    CHECK(bound.bytes == 16 * 16 * 37);
    CHECK(bound.pieces == 8);
    CHECK(bound.pieceBytes == 5 * 256);
    CHECK(bound.buffers == 3);
    CHECK(bound.stagingImported == canImportHostMemory(gpuContext()));
    REQUIRE(reads.size() == 8);
    for (uint32_t i = 0; i < 8; ++i) {
        CHECK(reads[i].first == i * 5);
        CHECK(reads[i].second == (i < 7 ? 5u : 2u));
        CHECK(destinations[i] == destinations[i % 3]); // the same 3 buffers, in turn
    }
    CHECK(std::set<std::byte*>(destinations.begin(), destinations.end()).size() == 3);
    CHECK(bound.wallMs >= bound.readMs);
    CHECK(bound.bytesPerSecond() > 0);
    if (gpuContext().transferTimestampValidBits() > 0)
        CHECK(bound.uploadGpuMs > 0);
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("the source ceiling of a volume smaller than one piece is one upload", "[stream]")
{
    Volume grid = byteGrid(8, 8, 3);
    int reads = 0;
    auto source = makeCallbackSource(grid, [&](uint32_t first, uint32_t count, std::byte* out) {
        ++reads;
        CHECK(first == 0);
        CHECK(count == 3);
        std::memset(out, 7, 3 * 64);
    });
    SourceBandwidth bound = measureSourceUpload(gpuContext(), *source, uint64_t(1) << 20);
    CHECK(reads == 1);
    CHECK(bound.pieces == 1);
    CHECK(bound.buffers == 1);
    CHECK(bound.bytes == 3 * 64);
    REQUIRE_NO_VALIDATION_MESSAGES();
}

TEST_CASE("a source that fails during the source ceiling ends it with its error after the uploads in flight",
          "[stream]")
{
    Volume grid = byteGrid(16, 16, 40);
    int reads = 0;
    auto source = makeCallbackSource(grid, [&](uint32_t first, uint32_t, std::byte* out) {
        if (++reads == 4)
            fail("simulation step crashed at plane " + std::to_string(first));
        std::memset(out, 1, 256);
    });
    REQUIRE_THROWS_WITH(measureSourceUpload(gpuContext(), *source, 4 * 256),
                        Catch::Contains("simulation step crashed at plane 12"));
    CHECK(reads == 4);
    REQUIRE_THROWS_WITH(measureSourceUpload(gpuContext(), *source, 256, 1),
                        Catch::Contains("at least 2 staging buffers"));
    REQUIRE_NO_VALIDATION_MESSAGES();
}
