// Bad input through the public API: a documented error naming what is
// wrong, never a crash, a silent empty result or a changed state.
#include <cmath>
#include <limits>

#include "api_fixture.h"

namespace iso = isoscope::api;
using api_test::ApiContext;
using api_test::errorOf;
using Catch::Matchers::Contains;

namespace {

const float kNaN = std::numeric_limits<float>::quiet_NaN();

iso::Volume sphere(iso::Context& context)
{
    auto volume = iso::Volume::load(context, "sphere:24");
    REQUIRE(volume.ok());
    return std::move(*volume);
}

} // namespace

TEST_CASE("the API refuses volumes it cannot read or hold, naming the cause", "[api]")
{
    ApiContext api;
    iso::Error missing = errorOf(iso::Volume::load(api.context, "/no/such/volume.nrrd"));
    CHECK(missing.code == iso::ErrorCode::InvalidFile);
    CHECK_THAT(missing.message, Contains("/no/such/volume.nrrd"));

    std::vector<float> samples(8 * 8 * 8, 0.0f);
    iso::VolumeDesc desc{{8, 8, 8}, iso::ScalarType::Float32};
    CHECK(iso::Volume::fromMemory(api.context, desc, samples.data(), samples.size() * sizeof(float)).ok());
    CHECK_THAT(errorOf(iso::Volume::fromMemory(api.context, desc, samples.data(), 100)).message, Contains("bytes"));
    CHECK_THAT(errorOf(iso::Volume::fromMemory(api.context, desc, nullptr, samples.size() * 4)).message,
               Contains("bytes"));
    iso::VolumeDesc flat = desc;
    flat.dims[2] = 1;
    CHECK_THAT(errorOf(iso::Volume::fromMemory(api.context, flat, samples.data(), 8 * 8 * 4)).message,
               Contains("dims[2]"));
    iso::VolumeDesc nanSpacing = desc;
    nanSpacing.spacing[1] = std::nan("");
    CHECK_THAT(errorOf(iso::Volume::fromMemory(api.context, nanSpacing, samples.data(), samples.size() * 4)).message,
               Contains("spacing[1]"));
}

TEST_CASE("the API refuses non-finite isovalues and keeps the last good one", "[api]")
{
    ApiContext api;
    iso::Volume volume = sphere(api.context);
    CHECK(errorOf(iso::Isosurface::create(api.context, volume, {iso::Method(7)})).code ==
          iso::ErrorCode::InvalidArgument);
    auto surface = iso::Isosurface::create(api.context, volume);
    REQUIRE(surface.ok());
    REQUIRE(surface->setIsovalue(0.5f).ok());
    iso::Error nan = errorOf(surface->setIsovalue(kNaN));
    CHECK(nan.code == iso::ErrorCode::InvalidArgument);
    CHECK_THAT(nan.message, Contains("isovalue") && Contains("nan"));
    CHECK(surface->isovalue() == 0.5f);
    CHECK_THAT(errorOf(surface->extract(std::numeric_limits<float>::infinity())).message, Contains("isovalue"));
    CHECK_THAT(errorOf(surface->writeMesh("never-written.ply")).message, Contains("extract"));
    auto mesh = surface->extract(0.5f);
    REQUIRE(mesh.ok());
    CHECK(mesh->indices.size() > 300);

    auto raycast = iso::IsoRaycast::create(api.context, volume);
    REQUIRE(raycast.ok());
    CHECK_THAT(errorOf(raycast->setIsovalue(kNaN)).message, Contains("isovalue"));
    iso::IsoRaycastOptions options;
    options.stepVoxels = 0.0f;
    CHECK_THAT(errorOf(raycast->setOptions(options)).message, Contains("stepVoxels"));
    options = {};
    options.frontColor[1] = 2.0f;
    CHECK_THAT(errorOf(raycast->setOptions(options)).message, Contains("frontColor"));
    CHECK_THAT(errorOf(iso::IsoRaycast::create(api.context, volume, options)).message, Contains("frontColor"));
}

TEST_CASE("the API refuses bad cameras, renderers and transfer functions", "[api]")
{
    ApiContext api;
    iso::Volume volume = sphere(api.context);
    CHECK_THAT(errorOf(iso::Renderer::create(api.context, {.framesInFlight = 4})).message, Contains("framesInFlight"));
    CHECK_THAT(errorOf(iso::Renderer::create(api.context, {.extent = {0, 16}})).message, Contains("extent"));
    auto renderer = iso::Renderer::create(api.context);
    REQUIRE(renderer.ok());

    iso::Camera camera = iso::frameVolume(volume, 1.0f);
    REQUIRE(renderer->setCamera(camera).ok());
    iso::Camera bad = camera;
    bad.eye = bad.target;
    CHECK_THAT(errorOf(renderer->setCamera(bad)).message, Contains("eye"));
    bad = camera;
    bad.fovYDeg = 0.0f;
    CHECK_THAT(errorOf(renderer->setCamera(bad)).message, Contains("fovYDeg"));
    bad = camera;
    bad.target[2] = kNaN;
    CHECK_THAT(errorOf(renderer->setCamera(bad)).message, Contains("target.z"));
    bad = camera;
    bad.farPlane = bad.nearPlane / 2;
    CHECK_THAT(errorOf(renderer->setCamera(bad)).message, Contains("farPlane"));

    auto raycast = iso::IsoRaycast::create(api.context, volume);
    auto dvr = iso::VolumeRendering::create(api.context, volume);
    REQUIRE(raycast.ok());
    REQUIRE(dvr.ok());
    REQUIRE(renderer->addRaycast(*raycast).ok());
    CHECK_THAT(errorOf(renderer->addVolumeRendering(*dvr)).message, Contains("at most one"));
    CHECK_THAT(errorOf(renderer->record(VK_NULL_HANDLE, 0, {})).message, Contains("command buffer"));
    CHECK_THAT(errorOf(renderer->renderImage({0, 0})).message, Contains("extent"));

    CHECK_THAT(errorOf(dvr->setTransferFunction("no-such-preset-or-file")).message, Contains("no-such-preset-or-file"));
    iso::TransferPoints unsorted{{{1.0, 1, 1, 1}, {0.0, 0, 0, 0}}, {{0.0, 0.0}, {1.0, 1.0}}};
    CHECK(errorOf(dvr->setTransferFunction(unsorted)).code == iso::ErrorCode::InvalidArgument);
    iso::TransferPoints tooOpaque{{{0.0, 1, 1, 1}}, {{0.0, 1.5}}};
    CHECK(errorOf(dvr->setTransferFunction(tooOpaque)).code == iso::ErrorCode::InvalidArgument);
    iso::VolumeRenderingOptions options;
    options.terminationOpacity = kNaN;
    CHECK_THAT(errorOf(dvr->setOptions(options)).message, Contains("terminationOpacity"));

    // A good frame after all of that: the state was left as it was.
    auto image = renderer->renderImage({32, 32});
    REQUIRE(image.ok());
    CHECK(image->rgba.size() == 32 * 32 * 4);
    CHECK_THAT(errorOf(iso::writePng({2, 2, {0, 0, 0}}, "never-written.png")).message, Contains("2 x 2 x 4"));
}
