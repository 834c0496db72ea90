// What the viewer reads through the public API: the volume's histogram,
// method and preset names, and a renderer's mesh counts before any frame.
#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <numeric>
#include <string>
#include <unistd.h>

#include "api_fixture.h"

namespace iso = isoscope::api;
using api_test::ApiContext;
using api_test::errorOf;
using Catch::Matchers::Contains;

TEST_CASE("a volume's histogram puts every finite sample in its bin over the value range", "[api]")
{
    ApiContext api;
    // 0..6 and one NaN, in a raw file the name describes: the range is 0..6, the NaN is in no bin.
    std::array<float, 8> samples{0, 1, 2, 3, 4, 5, 6, std::numeric_limits<float>::quiet_NaN()};
    std::filesystem::path folder = std::filesystem::temp_directory_path() / ("isoscope-api-histogram-" + std::to_string(::getpid())); // ctest runs two sizes at once
    std::filesystem::create_directories(folder);
    std::string path = (folder / "ramp_2x2x2_float32.raw").string();
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(samples.data()), sizeof samples);
    auto volume = iso::Volume::load(api.context, path);
    REQUIRE(volume.ok());
    REQUIRE(volume->valueRange() == std::array<double, 2>{0.0, 6.0});

    auto seven = volume->histogram(7); // bins of width 6/7: value v in bin floor(v * 7 / 6), 6 in the last
    REQUIRE(seven.ok());
    CHECK(*seven == std::vector<uint64_t>{1, 1, 1, 1, 1, 1, 1});
    auto two = volume->histogram(2); // 0, 1, 2 below 3; 3..6 from 3 on
    REQUIRE(two.ok());
    CHECK(*two == std::vector<uint64_t>{3, 4});
    auto one = volume->histogram(1);
    REQUIRE(one.ok());
    CHECK(*one == std::vector<uint64_t>{7});

    CHECK_THAT(errorOf(volume->histogram(0)).message, Contains("bins is 0"));
    CHECK(errorOf(volume->histogram(65537)).code == iso::ErrorCode::InvalidArgument);

    // fromMemory keeps no host copy: the error says so rather than counting nothing.
    auto wrapped = iso::Volume::fromMemory(api.context, {{2, 2, 2}, iso::ScalarType::Float32}, samples.data(),
                                           sizeof samples);
    REQUIRE(wrapped.ok());
    CHECK_THAT(errorOf(wrapped->histogram(4)).message, Contains("fromMemory"));
    std::filesystem::remove_all(folder);
}

TEST_CASE("a synthetic volume's histogram counts all its samples", "[api]")
{
    ApiContext api;
    auto volume = iso::Volume::load(api.context, "sphere:24");
    REQUIRE(volume.ok());
    auto bins = volume->histogram(256);
    REQUIRE(bins.ok());
    CHECK(std::accumulate(bins->begin(), bins->end(), uint64_t(0)) == 24u * 24u * 24u);
    CHECK(bins->front() > 0); // the smallest value is in the first bin, the largest in the last
    CHECK(bins->back() > 0);
}

TEST_CASE("methods and transfer-function presets have the names the CLI takes", "[api]")
{
    CHECK(std::string(iso::methodName(iso::Method::Block)) == "block");
    CHECK(std::string(iso::methodName(iso::Method::Scan)) == "scan");
    CHECK(std::string(iso::methodName(iso::Method::HistoPyramid)) == "histopyramid");
    CHECK(std::string(iso::methodName(iso::Method(7))) == "");

    ApiContext api;
    auto volume = iso::Volume::load(api.context, "sphere:16");
    REQUIRE(volume.ok());
    auto dvr = iso::VolumeRendering::create(api.context, *volume);
    REQUIRE(dvr.ok());
    std::vector<std::string> presets = iso::transferFunctionPresets();
    CHECK(presets.size() >= 2);
    for (const std::string& preset : presets)
        CHECK(dvr->setTransferFunction(preset).ok()); // each name is one setTransferFunction takes
}

TEST_CASE("a renderer has no mesh counts before a frame recorded", "[api]")
{
    ApiContext api;
    auto volume = iso::Volume::load(api.context, "sphere:16");
    REQUIRE(volume.ok());
    auto surface = iso::Isosurface::create(api.context, *volume);
    auto renderer = iso::Renderer::create(api.context);
    REQUIRE(surface.ok());
    REQUIRE(renderer.ok());
    REQUIRE(renderer->addSurface(*surface).ok());
    CHECK(renderer->meshCounts(0).empty());
    CHECK(renderer->meshCounts(1).empty());
}
