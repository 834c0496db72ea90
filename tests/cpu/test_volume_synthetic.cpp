// Synthetic fields: the grid, the analytic values, and the spec grammar.
#include <cmath>
#include <numbers>

#include "volume/readers.h"
#include "volume/synthetic.h"
#include "volume_test_support.h"

using namespace isoscope;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

namespace {

// Sample (i, j, k) of an N³ field sits at -1 + 2(i, j, k)/(N-1).
double coordinate(uint32_t i, uint32_t n)
{
    return -1.0 + 2.0 * double(i) / double(n - 1);
}

} // namespace

TEST_CASE("a synthetic spec NAME:N makes an N³ float32 grid on [-1,1]³", "[volume]")
{
    Volume volume = makeSyntheticVolume("cayley:64");
    CHECK(volume.dims == std::array<uint32_t, 3>{64, 64, 64});
    CHECK(volume.type == ScalarType::Float32);
    CHECK(volume.data.size() == 64u * 64 * 64 * 4);
    for (int axis = 0; axis < 3; ++axis) {
        CHECK(volume.origin[axis] == -1.0);
        CHECK(volume.spacing[axis] == 2.0 / 63.0);
        CHECK(volume.origin[axis] + 63 * volume.spacing[axis] == Approx(1.0).margin(1e-15));
    }
    CHECK(volume.source == "cayley:64");
}

TEST_CASE("a synthetic spec NAME:NXxNYxNZ sets each axis's size and spacing", "[volume]")
{
    Volume volume = makeSyntheticVolume("torus:8x6x4");
    CHECK(volume.dims == std::array<uint32_t, 3>{8, 6, 4});
    CHECK(volume.spacing == std::array<double, 3>{2.0 / 7.0, 2.0 / 5.0, 2.0 / 3.0});
    CHECK(volume.origin == std::array<double, 3>{-1.0, -1.0, -1.0});
    CHECK(volume.sampleCount() == 8 * 6 * 4);
}

TEST_CASE("synthetic fields have their analytic values at corners and centre", "[volume]")
{
    // Odd sizes put a sample exactly at the centre; 2/(N-1) makes i=0 and
    // i=N-1 exactly -1 and 1.
    auto at = [](const Volume& v, uint32_t i, uint32_t j, uint32_t k) { return double(v.value(i, j, k)); };

    Volume cayley = makeSyntheticVolume("cayley:9");
    CHECK(at(cayley, 4, 4, 4) == 1.0);           // 1 - 0 - 0
    CHECK(at(cayley, 8, 8, 8) == -27.0);         // 1 - 16 - 12
    CHECK(at(cayley, 0, 0, 0) == 5.0);           // 1 + 16 - 12
    CHECK(at(cayley, 8, 0, 4) == -7.0);          // x=1, y=-1, z=0: 1 - 0 - 8

    Volume sphere = makeSyntheticVolume("sphere:9");
    CHECK(at(sphere, 4, 4, 4) == 0.0);
    CHECK(at(sphere, 0, 8, 0) == float(std::sqrt(3.0)));
    CHECK(at(sphere, 8, 4, 4) == 1.0);

    Volume torus = makeSyntheticVolume("torus:9");
    CHECK(at(torus, 4, 4, 4) == float(0.55 * 0.55));
    CHECK(at(torus, 8, 4, 4) == float(0.45 * 0.45));                           // on the ring's plane, r = 1
    CHECK(at(torus, 8, 8, 8) == float(std::pow(std::sqrt(2.0) - 0.55, 2) + 1)); // corner

    Volume gyroid = makeSyntheticVolume("gyroid:9");
    CHECK(at(gyroid, 4, 4, 4) == 0.0);
    CHECK(at(gyroid, 8, 8, 8) == float(3.0 * std::sin(6.0) * std::cos(6.0)));
    CHECK(at(gyroid, 8, 4, 4) == float(std::sin(6.0)));                       // x=1: sin6·cos0 + 0 + 0·cos6

    Volume lobb = makeSyntheticVolume("marschner-lobb:9");
    // r = 0: ρ_r = cos(2π·6) = 1, so ρ = (1 - sin(πz/2) + 0.5) / 2.5.
    CHECK(at(lobb, 4, 4, 4) == float(0.6));
    CHECK(at(lobb, 4, 4, 8) == float(0.2));
    CHECK(at(lobb, 4, 4, 0) == float(1.0));
}

TEST_CASE("every synthetic sample is the analytic value computed in double, rounded to float", "[volume]")
{
    for (const std::string& name : syntheticFieldNames()) {
        INFO(name);
        Volume volume = makeSyntheticVolume(name + ":7x5x6");
        uint64_t mismatches = 0;
        for (uint32_t k = 0; k < 6; ++k)
            for (uint32_t j = 0; j < 5; ++j)
                for (uint32_t i = 0; i < 7; ++i) {
                    double expected = evaluateSyntheticField(name, coordinate(i, 7), coordinate(j, 5), coordinate(k, 6));
                    mismatches += volume.value(i, j, k) != float(expected);
                }
        CHECK(mismatches == 0);
        CHECK(volume.stats.nonFinite == 0);
        CHECK(volume.stats.min < volume.stats.max);
    }
}

TEST_CASE("marschner-lobb follows the 1994 formula at an off-axis point", "[volume]")
{
    double x = 0.3, y = -0.4, z = 0.2; // r = 0.5
    double rhoR = std::cos(2.0 * std::numbers::pi * 6.0 * std::cos(std::numbers::pi * 0.5 / 2.0));
    double expected = (1.0 - std::sin(std::numbers::pi * z / 2.0) + 0.25 * (1.0 + rhoR)) / 2.5;
    CHECK(evaluateSyntheticField("marschner-lobb", x, y, z) == Approx(expected).epsilon(1e-14));
    CHECK(evaluateSyntheticField("cayley", x, y, z) == Approx(1.0 + 16 * 0.024 - 4 * 0.29).epsilon(1e-14));
}

TEST_CASE("synthetic stats cover the field's range", "[volume]")
{
    Volume sphere = makeSyntheticVolume("sphere:33");
    CHECK(sphere.stats.min == 0.0);
    CHECK(sphere.stats.max == Approx(std::sqrt(3.0)).epsilon(1e-7));
    Volume lobb = makeSyntheticVolume("marschner-lobb:41");
    CHECK(lobb.stats.min >= 0.0);
    CHECK(lobb.stats.max <= 1.0);
}

TEST_CASE("syntheticFieldNames lists the five fields", "[volume]")
{
    CHECK(syntheticFieldNames() == std::vector<std::string>{"cayley", "sphere", "torus", "gyroid", "marschner-lobb"});
}

TEST_CASE("isSyntheticSpec tells specs from paths", "[volume]")
{
    CHECK(isSyntheticSpec("cayley:64"));
    CHECK(isSyntheticSpec("marschner-lobb:41"));
    CHECK(isSyntheticSpec("torus:128x128x64"));
    CHECK(isSyntheticSpec("sphre:64"));   // a typo still goes to makeSyntheticVolume's message
    CHECK(isSyntheticSpec("cayley:abc")); // likewise
    CHECK_FALSE(isSyntheticSpec("engine_256x256x128_uint8.raw"));
    CHECK_FALSE(isSyntheticSpec("C:\\data\\engine.nhdr"));
    CHECK_FALSE(isSyntheticSpec("/data/a:b/engine.nrrd"));
    CHECK_FALSE(isSyntheticSpec("cayley:"));
    CHECK_FALSE(isSyntheticSpec("cayley"));
}

TEST_CASE("bad synthetic specs are refused with the valid names and forms", "[volume]")
{
    const char* bad[] = {"cayley:1",  "cayley:0",          "blob:32",  "cayley:abc",         "cayley:8x8",
                         "cayley:8x8x8x8", "cayley:99999999999", "cayley:-4", "cayley:8x1x8", "cayley:64x", "cayley"};
    for (const char* spec : bad) {
        INFO(spec);
        std::string message = volumetest::errorMessage([&] { makeSyntheticVolume(spec); });
        CHECK_THAT(message, Contains(spec) && Contains("marschner-lobb") && Contains("NAME:NXxNYxNZ"));
    }
    CHECK_THAT(volumetest::errorMessage([] { makeSyntheticVolume("cayley:100000x100000x100000"); }),
               Contains("1 TiB"));
}

TEST_CASE("loadVolume makes a synthetic volume from a spec", "[volume]")
{
    Volume volume = loadVolume("gyroid:6");
    CHECK(volume.dims == std::array<uint32_t, 3>{6, 6, 6});
    CHECK(volume.source == "gyroid:6");
}

TEST_CASE("loadVolume prefers an existing file over a spec of the same name", "[volume]")
{
    fs::path folder = volumetest::tmpPath("spec-folder");
    fs::create_directories(folder);
    volumetest::writeFile(folder / "sphere:4", "not a volume");
    fs::path previous = fs::current_path();
    fs::current_path(folder);
    std::string message = volumetest::errorMessage([] { loadVolume("sphere:4"); });
    fs::current_path(previous);
    CHECK_THAT(message, Contains("unknown volume format")); // the file was read, not the field made
}

TEST_CASE("loadVolume names a missing file and the spec forms", "[volume]")
{
    std::string message = volumetest::errorMessage([] { loadVolume("/no/such/volume.nrrd"); });
    CHECK_THAT(message, Contains("/no/such/volume.nrrd") && Contains("no such file") && Contains("NAME:N"));
}
