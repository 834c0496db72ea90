// Volume::update through the public API, as a host uses it: after an update
// every consumer of the volume (each extraction method, the isosurface
// raycast, volume rendering, a Renderer's frames with two in flight) gives
// what a volume made from the updated samples gives; bad arguments are
// refused with an Error naming the parameter, the volume untouched. Any
// validation message fails a test (api_fixture.h).
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <isoscope/isoscope.h>
#include <unistd.h>

#include "api_fixture.h"
#include "host_frames.h"

using namespace isoscope::api;
using api_test::ApiContext;

namespace {

constexpr std::array<uint32_t, 3> kDims{40, 36, 32};
constexpr float kIso = 9.0f;
// The second blob's box: its surface (radius 5 about the box's centre) lies
// inside, and the field at the box's faces stays above the isovalue.
const Volume::Region kBlobBox{{22, 17, 14}, {16, 16, 16}};

float distance(float x, float y, float z, std::array<float, 3> c)
{
    return std::sqrt((x - c[0]) * (x - c[0]) + (y - c[1]) * (y - c[1]) + (z - c[2]) * (z - c[2]));
}

// A sphere's distance field; with the blob, the nearer of it and a second sphere's.
std::vector<float> field(bool blob)
{
    std::vector<float> samples;
    for (uint32_t z = 0; z < kDims[2]; ++z)
        for (uint32_t y = 0; y < kDims[1]; ++y)
            for (uint32_t x = 0; x < kDims[0]; ++x) {
                float v = distance(float(x), float(y), float(z), {15, 17, 15});
                bool inBox = x >= kBlobBox.offset[0] && x < kBlobBox.offset[0] + kBlobBox.extent[0] &&
                             y >= kBlobBox.offset[1] && y < kBlobBox.offset[1] + kBlobBox.extent[1] &&
                             z >= kBlobBox.offset[2] && z < kBlobBox.offset[2] + kBlobBox.extent[2];
                if (blob && inBox)
                    v = std::min(v, distance(float(x), float(y), float(z), {30, 25, 22}) + 4.0f);
                samples.push_back(v);
            }
    return samples;
}

// The samples of `region` of a whole field, x fastest.
std::vector<float> regionOf(const std::vector<float>& whole, const Volume::Region& region)
{
    std::vector<float> samples;
    for (uint32_t z = region.offset[2]; z < region.offset[2] + region.extent[2]; ++z)
        for (uint32_t y = region.offset[1]; y < region.offset[1] + region.extent[1]; ++y)
            for (uint32_t x = region.offset[0]; x < region.offset[0] + region.extent[0]; ++x)
                samples.push_back(whole[(size_t(z) * kDims[1] + y) * kDims[0] + x]);
    return samples;
}

template <typename T>
T take(Result<T>&& result)
{
    if (!result)
        FAIL(result.error().message);
    return std::move(result).value();
}

void check(const Status& status)
{
    if (!status)
        FAIL(status.error().message);
}

Volume volumeOf(Context& context, const std::vector<float>& samples)
{
    return take(Volume::fromMemory(context, {kDims, ScalarType::Float32}, samples.data(),
                                   samples.size() * sizeof(float)));
}

Status updateTo(Volume& volume, const std::vector<float>& whole, const Volume::Region& region)
{
    std::vector<float> samples = regionOf(whole, region);
    return volume.update(region, samples.data(), samples.size() * sizeof(float));
}

// Whether both meshes have the same triangle count and the same vertices,
// each within `tolerance` (the order in which the GPU wrote them may differ).
void requireSameMesh(const HostMesh& a, const HostMesh& b, float tolerance)
{
    REQUIRE(a.indices.size() == b.indices.size());
    REQUIRE(a.positions.size() == b.positions.size());
    std::vector<std::array<float, 3>> pa = a.positions, pb = b.positions;
    std::sort(pa.begin(), pa.end());
    std::sort(pb.begin(), pb.end());
    size_t far = 0;
    for (size_t i = 0; i < pa.size(); ++i)
        for (int k = 0; k < 3; ++k)
            far += std::abs(pa[i][k] - pb[i][k]) > tolerance;
    REQUIRE(far == 0);
}

// Pixels whose channels differ by more than one level.
size_t pixelsApart(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b)
{
    REQUIRE(a.size() == b.size());
    size_t apart = 0;
    for (size_t p = 0; p < a.size(); p += 4)
        for (size_t c = 0; c < 4; ++c)
            if (std::abs(int(a[p + c]) - int(b[p + c])) > 1) {
                ++apart;
                break;
            }
    return apart;
}

constexpr VkExtent2D kExtent{64, 64};

Renderer rendererOf(Context& context, const Volume& framed)
{
    Renderer renderer = take(Renderer::create(context, {.framesInFlight = 2, .extent = kExtent, .clear = true}));
    renderer.setCamera(frameVolume(framed, 1.0f, 30.0f, 20.0f));
    return renderer;
}

TransferPoints blobOpacity()
{
    TransferPoints points;
    points.color = {{0.0, 1.0, 0.8, 0.6}, {60.0, 0.2, 0.4, 1.0}};
    points.opacity = {{0.0, 0.9}, {kIso, 0.9}, {kIso + 0.5, 0.0}, {60.0, 0.0}};
    return points;
}

} // namespace

TEST_CASE("an updated volume extracts, with every method, what a volume made from the updated samples extracts",
          "[api][update]")
{
    ApiContext api;
    const std::vector<float> before = field(false), after = field(true);
    for (Method method : {Method::Block, Method::Scan, Method::HistoPyramid}) {
        INFO("method " << int(method));
        Volume volume = volumeOf(api.context, before);
        Isosurface surface = take(Isosurface::create(api.context, volume, {method}));
        HostMesh sphere = take(surface.extract(kIso));
        check(updateTo(volume, after, kBlobBox));
        HostMesh updated = take(surface.extract(kIso));

        Volume fresh = volumeOf(api.context, after);
        Isosurface freshSurface = take(Isosurface::create(api.context, fresh, {method}));
        HostMesh expected = take(freshSurface.extract(kIso));
        REQUIRE(expected.indices.size() > sphere.indices.size() + 300); // the blob is there to see
        requireSameMesh(updated, expected, 1e-5f);
        // The range widens to the new samples (here it holds them already).
        REQUIRE(volume.valueRange()[0] <= fresh.valueRange()[0]);
        REQUIRE(volume.valueRange()[1] >= fresh.valueRange()[1]);

        // And back: the blob's blocks are derived again, not only added.
        check(updateTo(volume, before, kBlobBox));
        requireSameMesh(take(surface.extract(kIso)), sphere, 1e-5f);
    }
}

TEST_CASE("extract() at one isovalue after another (its graph and read-back kept) equals a fresh Isosurface's at each",
          "[api][update]")
{
    ApiContext api;
    const std::vector<float> samples = field(false);
    Volume volume = volumeOf(api.context, samples);
    for (Method method : methods()) {
        INFO("method " << methodName(method));
        Isosurface surface = take(Isosurface::create(api.context, volume, {method}));
        HostMesh last;
        // Small, larger (the kept mesh and read-back grow), small again, between.
        for (float iso : {4.0f, 12.0f, 4.0f, 7.0f}) {
            INFO("isovalue " << iso);
            last = take(surface.extract(iso));
            Isosurface fresh = take(Isosurface::create(api.context, volume, {method}));
            HostMesh expected = take(fresh.extract(iso));
            REQUIRE(expected.indices.size() > 100);
            REQUIRE(last.faceSize == expected.faceSize);
            requireSameMesh(last, expected, 0.0f);
            REQUIRE(last.normals.size() == last.positions.size());
            for (uint32_t index : last.indices)
                REQUIRE(index < last.positions.size());
        }
        // writeMesh writes the last extraction's mesh.
        const std::string path = (std::filesystem::temp_directory_path() /
                                  ("isoscope-api-last-" + std::to_string(::getpid()) + "-" + std::string(methodName(method)) + ".ply")).string();
        check(surface.writeMesh(path));
        std::ifstream file(path, std::ios::binary);
        std::string line, vertexLine;
        while (std::getline(file, line) && line != "end_header")
            if (line.rfind("element vertex ", 0) == 0)
                vertexLine = line;
        CHECK(vertexLine == "element vertex " + std::to_string(last.positions.size()));
        std::filesystem::remove(path);
    }
}

TEST_CASE("raycasting and volume rendering an updated volume draw what a volume made from the updated samples draws",
          "[api][update]")
{
    ApiContext api;
    const std::vector<float> before = field(false), after = field(true);
    Volume volume = volumeOf(api.context, before), fresh = volumeOf(api.context, after);
    // Before the update the updated volume's image differs from the fresh
    // one's; after it, they are equal. `rays(renderer, volume)` adds that
    // volume's raycast or volume rendering to the renderer.
    auto compare = [&](auto&& rays) {
        Renderer renderer = rendererOf(api.context, volume), freshRenderer = rendererOf(api.context, fresh);
        rays(renderer, false);
        rays(freshRenderer, true);
        Image sphere = take(renderer.renderImage(kExtent));
        check(updateTo(volume, after, kBlobBox));
        Image updated = take(renderer.renderImage(kExtent));
        Image expected = take(freshRenderer.renderImage(kExtent));
        REQUIRE(pixelsApart(sphere.rgba, expected.rgba) > 20);
        REQUIRE(pixelsApart(updated.rgba, expected.rgba) == 0);
    };
    SECTION("isosurface raycast")
    {
        IsoRaycast ray = take(IsoRaycast::create(api.context, volume));
        IsoRaycast freshRay = take(IsoRaycast::create(api.context, fresh));
        check(ray.setIsovalue(kIso));
        check(freshRay.setIsovalue(kIso));
        compare([&](Renderer& renderer, bool isFresh) { check(renderer.addRaycast(isFresh ? freshRay : ray)); });
    }
    SECTION("volume rendering")
    {
        VolumeRendering dvr = take(VolumeRendering::create(api.context, volume));
        VolumeRendering freshDvr = take(VolumeRendering::create(api.context, fresh));
        check(dvr.setTransferFunction(blobOpacity()));
        check(freshDvr.setTransferFunction(blobOpacity()));
        compare([&](Renderer& renderer, bool isFresh) {
            check(renderer.addVolumeRendering(isFresh ? freshDvr : dvr));
        });
    }
}

TEST_CASE("updates between frames with two in flight: each frame draws the samples updated before it",
          "[api][update][frames]")
{
    ApiContext api;
    const std::vector<float> before = field(false), after = field(true);
    // The reference of each state: a headless frame of volumes made from it.
    std::vector<std::vector<uint8_t>> references;
    for (const std::vector<float>* state : {&before, &after}) {
        Volume reference = volumeOf(api.context, *state);
        Isosurface surface = take(Isosurface::create(api.context, reference));
        IsoRaycast ray = take(IsoRaycast::create(api.context, reference));
        check(surface.setIsovalue(kIso));
        check(ray.setIsovalue(kIso + 2.0f)); // a larger shell, around the mesh
        Renderer renderer = rendererOf(api.context, reference);
        check(renderer.addSurface(surface));
        check(renderer.addRaycast(ray));
        references.push_back(take(renderer.renderImage(kExtent)).rgba);
    }
    REQUIRE(pixelsApart(references[0], references[1]) > 20);

    Volume volume = volumeOf(api.context, before);
    Isosurface surface = take(Isosurface::create(api.context, volume));
    IsoRaycast ray = take(IsoRaycast::create(api.context, volume));
    check(surface.setIsovalue(kIso));
    check(ray.setIsovalue(kIso + 2.0f));
    Renderer renderer = rendererOf(api.context, volume);
    check(renderer.addSurface(surface));
    check(renderer.addRaycast(ray));
    api_test::HostFrames frames(api.context, 2, kExtent);
    // Frame n shows state n % 2; each update runs while the frame before it
    // may still be on the GPU. The first frames of each state let the mesh
    // grow to fit (a frame that overflows draws what fit).
    constexpr uint64_t kWarmUp = 4, kFrames = 12;
    for (uint64_t frame = 0; frame < kFrames; ++frame) {
        if (frame > 0)
            check(updateTo(volume, frame % 2 ? after : before, kBlobBox));
        frames.submit(renderer, frame);
        if (frame > kWarmUp) {
            INFO("frame " << frame - 1);
            REQUIRE(pixelsApart(frames.colour(frame - 1), references[(frame - 1) % 2]) == 0);
        }
    }
    REQUIRE(pixelsApart(frames.colour(kFrames - 1), references[(kFrames - 1) % 2]) == 0);
}

TEST_CASE("Volume::update refuses a bad region, size or pointer with an Error naming it, the volume untouched",
          "[api][update]")
{
    ApiContext api;
    const std::vector<float> before = field(false);
    Volume volume = volumeOf(api.context, before);
    Isosurface surface = take(Isosurface::create(api.context, volume));
    HostMesh sphere = take(surface.extract(kIso));
    std::vector<float> samples(8 * 8 * 8, 100.0f);
    const size_t bytes = samples.size() * sizeof(float);
    auto refused = [&](const Volume::Region& region, const void* data, size_t size, const std::string& names) {
        Status status = volume.update(region, data, size);
        REQUIRE_FALSE(status.ok());
        INFO(status.error().message);
        REQUIRE(status.error().code == ErrorCode::InvalidArgument);
        REQUIRE(status.error().message.find(names) != std::string::npos);
    };
    refused({{33, 0, 0}, {8, 8, 8}}, samples.data(), bytes, "region.offset[0] + region.extent[0] is 41");
    refused({{0, 0, 25}, {8, 8, 8}}, samples.data(), bytes, "region.offset[2] + region.extent[2] is 33");
    refused({{0, 0, 0}, {8, 0, 8}}, samples.data(), bytes, "region.extent[1] is 0");
    refused({{0, 0, 0}, {8, 8, 8}}, samples.data(), bytes - 4, "bytes is 2044");
    refused({{0, 0, 0}, {8, 8, 8}}, nullptr, bytes, "samples is null");
    std::vector<float> notFinite = samples;
    notFinite[17] = std::nanf("");
    refused({{0, 0, 0}, {8, 8, 8}}, notFinite.data(), bytes, "non-finite");
    REQUIRE(volume.valueRange()[1] < 100.0);
    requireSameMesh(take(surface.extract(kIso)), sphere, 0.0f);
}
