// What the viewer's clip box, iso-auto mode, transfer-function editor and
// memory overlay use through the public API: clip boxes for the isosurface
// raycast and volume rendering, the adaptive ray mapping after calibrate(),
// transfer functions read and written in the formats the engine reads, and
// the device memory isoscope holds, and a volume loaded on another thread
// while frames are drawn (the viewer's loading).
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <optional>
#include <string>
#include <thread>
#include <vector>
#include <unistd.h>

#include "api_fixture.h"
#include "host_frames.h"

namespace iso = isoscope::api;
using api_test::ApiContext;
using api_test::errorOf;
using Catch::Matchers::Contains;

namespace {

constexpr VkExtent2D kExtent{48, 40};

template <typename T>
T take(iso::Result<T>&& result)
{
    if (!result)
        FAIL(result.error().message);
    return std::move(*result);
}

void check(const iso::Status& status)
{
    if (!status)
        FAIL(status.error().message);
}

// Looking along −y from (0, 3, 0): image columns right of the centre see x < 0, left of it x > 0.
iso::Camera sideCamera()
{
    iso::Camera camera;
    camera.eye = {0.0f, 3.0f, 0.0f};
    camera.target = {0.0f, 0.0f, 0.0f};
    camera.fovYDeg = 50.0f;
    return camera;
}

struct Halves {
    uint32_t leftBackground = 0, leftPixels = 0;   // x > 0: clipped away
    uint32_t rightSame = 0, rightPixels = 0;       // x < 0: kept
    uint32_t leftDrawnUnclipped = 0;               // what the clip removed
};

// Columns more than 2 from the centre on each side (the central ones look along x = 0).
Halves compareHalves(const iso::Image& clipped, const iso::Image& whole)
{
    Halves h;
    const uint8_t* background = &whole.rgba[0]; // the top-left corner sees no volume
    auto same = [](const uint8_t* a, const uint8_t* b) { return a[0] == b[0] && a[1] == b[1] && a[2] == b[2]; };
    for (uint32_t y = 0; y < whole.height; ++y)
        for (uint32_t x = 0; x < whole.width; ++x) {
            size_t i = (size_t(y) * whole.width + x) * 4;
            int fromCentre = int(2 * x + 1) - int(whole.width);
            if (fromCentre < -4) {
                ++h.leftPixels;
                h.leftBackground += same(&clipped.rgba[i], background);
                h.leftDrawnUnclipped += !same(&whole.rgba[i], background);
            } else if (fromCentre > 4) {
                ++h.rightPixels;
                h.rightSame += same(&clipped.rgba[i], &whole.rgba[i]);
            }
        }
    return h;
}

// A clip box keeping x <= 0 of sphere:32 (its bounds are [-1, 1]^3).
iso::ClipBox keepNegativeX()
{
    iso::ClipBox box;
    box.max[0] = 0.0;
    return box;
}

template <typename Rays>
void requireClipsHalf(iso::Context& context, Rays& rays, bool raycast)
{
    auto image = [&] {
        iso::Renderer renderer = take(iso::Renderer::create(context, {.framesInFlight = 1, .extent = kExtent}));
        if constexpr (std::is_same_v<Rays, iso::IsoRaycast>)
            check(renderer.addRaycast(rays));
        else
            check(renderer.addVolumeRendering(rays));
        check(renderer.setCamera(sideCamera()));
        return take(renderer.renderImage(kExtent));
    };
    iso::Image whole = image();
    check(rays.setClipBox(keepNegativeX()));
    iso::Image clipped = image();
    Halves h = compareHalves(clipped, whole);
    INFO((raycast ? "raycast" : "dvr") << ": left " << h.leftBackground << "/" << h.leftPixels << " background, "
                                      << h.leftDrawnUnclipped << " drawn unclipped; right " << h.rightSame << "/"
                                      << h.rightPixels << " unchanged");
    CHECK(h.leftDrawnUnclipped > 30); // the half clipped away had the volume in it (the sphere: 54 pixels)
    CHECK(h.leftBackground == h.leftPixels);        // and shows none of it now
    CHECK(h.rightSame == h.rightPixels);            // rays that never leave the box draw what they drew

    // A box around the whole volume (and the default, infinite one) clips nothing.
    check(rays.setClipBox({{-1.5, -2.0, -1.0}, {1.0, 2.0, 3.0}}));
    CHECK(image().rgba == whole.rgba);
    check(rays.setClipBox({}));
    CHECK(image().rgba == whole.rgba);
    // A box beside the volume leaves nothing to draw.
    check(rays.setClipBox({{2.0, -1.0, -1.0}, {3.0, 1.0, 1.0}}));
    iso::Image empty = image();
    CHECK(compareHalves(empty, whole).leftBackground == h.leftPixels);
    CHECK(compareHalves(empty, whole).rightSame < h.rightPixels);
    check(rays.setClipBox({}));
}

} // namespace

TEST_CASE("a clip box hides the volume outside it and leaves every ray inside it as it was", "[api][clip]")
{
    ApiContext api;
    iso::Volume volume = take(iso::Volume::load(api.context, "sphere:32"));
    SECTION("isosurface raycast, both mappings")
    {
        for (iso::RayMapping mapping : {iso::RayMapping::Invocation, iso::RayMapping::Subgroup}) {
            iso::IsoRaycast ray = take(iso::IsoRaycast::create(api.context, volume, {.mapping = mapping}));
            check(ray.setIsovalue(0.5f));
            requireClipsHalf(api.context, ray, true);
        }
    }
    SECTION("volume rendering")
    {
        iso::VolumeRendering dvr = take(iso::VolumeRendering::create(api.context, volume));
        requireClipsHalf(api.context, dvr, false);
    }
    SECTION("a NaN corner is refused, the box kept")
    {
        iso::IsoRaycast ray = take(iso::IsoRaycast::create(api.context, volume));
        check(ray.setClipBox(keepNegativeX()));
        iso::ClipBox bad;
        bad.min[1] = std::numeric_limits<double>::quiet_NaN();
        iso::Error error = errorOf(ray.setClipBox(bad));
        CHECK(error.code == iso::ErrorCode::InvalidArgument);
        CHECK_THAT(error.message, Contains("NaN"));
        CHECK(ray.clipBox().max[0] == 0.0);
    }
}

TEST_CASE("the Auto ray mapping needs calibrate(), then draws what the mapping it picked draws", "[api][auto]")
{
    ApiContext api;
    iso::Volume volume = take(iso::Volume::load(api.context, "sphere:32"));
    iso::IsoRaycast ray = take(iso::IsoRaycast::create(api.context, volume, {.mapping = iso::RayMapping::Auto}));
    check(ray.setIsovalue(0.5f));
    iso::Renderer renderer = take(iso::Renderer::create(api.context, {.framesInFlight = 1, .extent = kExtent}));
    check(renderer.addRaycast(ray));
    iso::Camera camera = iso::frameVolume(volume, float(kExtent.width) / float(kExtent.height), 30.0f, 20.0f);
    check(renderer.setCamera(camera));

    CHECK_FALSE(ray.calibrated());
    CHECK_THAT(errorOf(renderer.renderImage(kExtent)).message, Contains("calibrat"));
    CHECK(errorOf(ray.calibrate({0, 0}, camera)).code == iso::ErrorCode::InvalidArgument);

    check(ray.calibrate(kExtent, camera));
    REQUIRE(ray.calibrated());
    iso::Image automatic = take(renderer.renderImage(kExtent));
    iso::RayMapping picked = ray.lastMapping();
    REQUIRE((picked == iso::RayMapping::Invocation || picked == iso::RayMapping::Subgroup));
    check(ray.setOptions({.mapping = picked}));
    iso::Image fixed = take(renderer.renderImage(kExtent));
    CHECK(automatic.rgba == fixed.rgba);
    CHECK(ray.lastMapping() == picked);
}

TEST_CASE("calibrateStep calibrates one frame a call while frames are drawn between the calls", "[api][auto]")
{
    ApiContext api;
    iso::Volume volume = take(iso::Volume::load(api.context, "sphere:32"));
    iso::IsoRaycast ray = take(iso::IsoRaycast::create(api.context, volume));
    check(ray.setIsovalue(0.5f));
    iso::Renderer renderer = take(iso::Renderer::create(api.context, {.framesInFlight = 2, .extent = kExtent}));
    check(renderer.addRaycast(ray));
    iso::Camera camera = iso::frameVolume(volume, float(kExtent.width) / float(kExtent.height), 30.0f, 20.0f);
    check(renderer.setCamera(camera));
    CHECK(errorOf(ray.calibrateStep({0, 0}, camera)).code == iso::ErrorCode::InvalidArgument);

    api_test::HostFrames frames(api.context, 2, kExtent);
    uint64_t frame = 0;
    uint32_t done = 0, total = 0, steps = 0;
    while (true) {
        frames.submit(renderer, frame++); // the Invocation mapping meanwhile
        iso::CalibrationProgress progress = take(ray.calibrateStep(kExtent, camera));
        ++steps;
        REQUIRE(progress.done == done + 1); // one frame a call
        REQUIRE((total == 0 || progress.total == total));
        done = progress.done;
        total = progress.total;
        if (progress.finished())
            break;
        REQUIRE_FALSE(ray.calibrated());
        REQUIRE(steps < 10000);
    }
    CHECK(total == steps);
    CHECK(total >= 2 * 21); // both mappings along every direction
    CHECK(ray.calibrated());
    frames.colour(frame - 1);

    // Auto then draws what the mapping it picked draws, as after calibrate().
    check(ray.setOptions({.mapping = iso::RayMapping::Auto}));
    iso::Image automatic = take(renderer.renderImage(kExtent));
    iso::RayMapping picked = ray.lastMapping();
    check(ray.setOptions({.mapping = picked}));
    CHECK(automatic.rgba == take(renderer.renderImage(kExtent)).rgba);
}

TEST_CASE("transfer functions written in either format read back as the same function", "[api][tf]")
{
    ApiContext api;
    iso::Volume volume = take(iso::Volume::load(api.context, "sphere:32"));
    auto range = volume.valueRange();
    std::filesystem::path folder = std::filesystem::temp_directory_path() / ("isoscope-api-tf-" + std::to_string(::getpid())); // ctest runs two sizes at once
    std::filesystem::create_directories(folder);

    iso::TransferPoints ct = take(iso::readTransferFunction("ct", range[0], range[1]));
    REQUIRE(ct.color.size() >= 2);
    REQUIRE(ct.opacity.size() >= 2);
    iso::VolumeRendering dvr = take(iso::VolumeRendering::create(api.context, volume));
    check(dvr.setTransferFunction("ct"));
    CHECK(dvr.transferFunction().color == ct.color); // the preset as the renderer holds it
    CHECK(dvr.transferFunction().opacity == ct.opacity);
    iso::Renderer renderer = take(iso::Renderer::create(api.context, {.framesInFlight = 1, .extent = kExtent}));
    check(renderer.addVolumeRendering(dvr));
    check(renderer.setCamera(iso::frameVolume(volume, 1.2f)));
    iso::Image preset = take(renderer.renderImage(kExtent));

    // ParaView JSON: the very points.
    std::string json = (folder / "edited.json").string();
    check(iso::writeTransferFunction(ct, json));
    iso::TransferPoints back = take(iso::readTransferFunction(json, 0.0, 1.0));
    CHECK(back.color == ct.color);
    CHECK(back.opacity == ct.opacity);
    check(dvr.setTransferFunction(json));
    CHECK(take(renderer.renderImage(kExtent)).rgba == preset.rgba);

    // Text: a line at each value; with colour and opacity at the same values, the very points too.
    iso::TransferPoints edited{{{range[0], 0.0, 0.0, 1.0}, {0.5, 1.0, 0.5, 0.0}, {range[1], 1.0, 1.0, 1.0}},
                               {{range[0], 0.0}, {0.5, 0.75}, {range[1], 0.25}}};
    std::string text = (folder / "edited.txt").string();
    check(iso::writeTransferFunction(edited, text));
    back = take(iso::readTransferFunction(text, 0.0, 1.0));
    CHECK(back.color == edited.color);
    CHECK(back.opacity == edited.opacity);
    check(dvr.setTransferFunction(edited));
    iso::Image fromPoints = take(renderer.renderImage(kExtent));
    CHECK(fromPoints.rgba != preset.rgba);
    check(dvr.setTransferFunction(text));
    CHECK(take(renderer.renderImage(kExtent)).rgba == fromPoints.rgba);

    // Bad points and unwritable paths are refused with what is wrong.
    iso::TransferPoints unsorted = edited;
    std::swap(unsorted.opacity[0], unsorted.opacity[2]);
    CHECK(errorOf(iso::writeTransferFunction(unsorted, text)).code == iso::ErrorCode::InvalidArgument);
    iso::Error unwritable = errorOf(iso::writeTransferFunction(edited, (folder / "no-such-folder" / "x.txt").string()));
    CHECK(unwritable.code == iso::ErrorCode::InvalidFile);
    CHECK_THAT(unwritable.message, Contains("no-such-folder"));
    CHECK(errorOf(iso::readTransferFunction("no-such-preset-or-file", 0.0, 1.0)).code == iso::ErrorCode::InvalidFile);
    std::filesystem::remove_all(folder);
}

TEST_CASE("device memory in use counts what isoscope's objects hold", "[api][memory]")
{
    ApiContext api;
    iso::DeviceMemory before = api.context.memory();
    CHECK(before.budgetBytes > 0);
    uint64_t held = 0;
    {
        iso::Volume volume = take(iso::Volume::load(api.context, "sphere:64")); // 64³ float32: 1 MiB on the device
        iso::DeviceMemory loaded = api.context.memory();
        held = loaded.isoscopeBytes - before.isoscopeBytes;
        CHECK(loaded.isoscopeBytes >= before.isoscopeBytes + 64u * 64u * 64u * 4u);
        CHECK(loaded.isoscopePeakBytes >= loaded.isoscopeBytes);
        if (loaded.budgetReported) {
            CHECK(loaded.usedBytes <= loaded.budgetBytes);
        } else {
            CHECK(loaded.usedBytes == 0);
        }
    }
    iso::DeviceMemory after = api.context.memory();
    INFO("the volume held " << held << " bytes");
    CHECK(after.isoscopeBytes == before.isoscopeBytes);
    CHECK(after.isoscopePeakBytes >= before.isoscopeBytes + held);
}

TEST_CASE("a volume loads on another thread while this one draws frames, the queue shared under its lock",
          "[api][thread]")
{
    ApiContext api; // validation's thread checks report a queue used by two threads at once
    constexpr VkExtent2D extent{40, 32};
    iso::Volume shown = take(iso::Volume::load(api.context, "sphere:24"));
    iso::IsoRaycast ray = take(iso::IsoRaycast::create(api.context, shown));
    check(ray.setIsovalue(0.5f));
    iso::Renderer renderer = take(iso::Renderer::create(api.context, {.framesInFlight = 2, .extent = extent, .clear = true}));
    check(renderer.addRaycast(ray));
    check(renderer.setCamera(iso::frameVolume(shown, 1.25f)));
    api_test::HostFrames frames(api.context, 2, extent);

    std::atomic<bool> done{false};
    std::atomic<uint32_t> steps{0};
    std::optional<iso::Volume> loaded;
    std::optional<iso::IsoRaycast> loadedRay;
    std::string error;
    std::thread loader([&] {
        auto volume = iso::Volume::load(api.context, "sphere:80", [&steps](const iso::LoadStep&) { ++steps; });
        if (volume) {
            loaded.emplace(std::move(*volume));
            auto made = iso::IsoRaycast::create(api.context, *loaded);
            if (made)
                loadedRay.emplace(std::move(*made));
            else
                error = made.error().message;
        } else {
            error = volume.error().message;
        }
        done = true;
    });
    uint64_t frame = 0;
    while (!done)
        frames.submit(renderer, frame++);
    loader.join();
    REQUIRE(error.empty());
    INFO(frame << " frames drawn while it loaded, " << steps << " progress steps");
    CHECK(frame > 0);
    CHECK(steps > 0);
    std::vector<uint8_t> last = frames.colour(frame - 1);
    CHECK(last == take(renderer.renderImage(extent)).rgba); // the frames drew the volume shown all along

    // The volume made on the other thread draws what one made here draws.
    check(loadedRay->setIsovalue(0.5f));
    iso::Volume here = take(iso::Volume::load(api.context, "sphere:80"));
    iso::IsoRaycast hereRay = take(iso::IsoRaycast::create(api.context, here));
    check(hereRay.setIsovalue(0.5f));
    auto image = [&](iso::IsoRaycast& rays) {
        iso::Renderer r = take(iso::Renderer::create(api.context, {.framesInFlight = 1, .extent = extent}));
        check(r.addRaycast(rays));
        check(r.setCamera(iso::frameVolume(here, 1.25f)));
        return take(r.renderImage(extent)).rgba;
    };
    CHECK(image(*loadedRay) == image(hereRay));
    loadedRay.reset();
}
