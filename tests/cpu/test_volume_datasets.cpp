// The real volumes of ../shared/datasets load with the manifest's layout.
#include "../datasets_dir.h"
#include "volume/readers.h"
#include "volume_test_support.h"

using namespace isoscope;
namespace fs = std::filesystem;

namespace {

struct Dataset {
    const char* name;
    std::array<uint32_t, 3> dims;
    ScalarType type;
    std::array<double, 3> spacing;
};

// From MANIFEST.md.
const Dataset datasets[] = {
    {"engine_256x256x128_uint8", {256, 256, 128}, ScalarType::UInt8, {1, 1, 1}},
    {"fmri_128x96x24_int16", {128, 96, 24}, ScalarType::Int16, {2, 2, 2.2}},
    {"anatomical_33x41x25_int16", {33, 41, 25}, ScalarType::Int16, {2, 2, 2}},
};

} // namespace

TEST_CASE("the real datasets load with the manifest's sizes, type and spacing, header or raw", "[volume]")
{
    fs::path folder = isoscope::test::datasetsDir();
    if (!fs::exists(folder / "MANIFEST.md")) {
        WARN("skipped: no datasets at " << folder.string());
        return;
    }
    for (const Dataset& dataset : datasets) {
        INFO(dataset.name);
        Volume volume = readVolumeFile(folder / (std::string(dataset.name) + ".nhdr"));
        CHECK(volume.dims == dataset.dims);
        CHECK(volume.type == dataset.type);
        CHECK(volume.spacing == dataset.spacing);
        CHECK(volume.origin == std::array<double, 3>{0, 0, 0});
        CHECK(volume.stats.nonFinite == 0);
        // Real scans span a range and their mean lies inside it.
        CHECK(volume.stats.min < volume.stats.mean);
        CHECK(volume.stats.mean < volume.stats.max);

        // The .raw beside it, read by its name, holds the same samples.
        Volume raw = loadVolume((folder / (std::string(dataset.name) + ".raw")).string());
        CHECK(raw.dims == volume.dims);
        CHECK(raw.data == volume.data);
    }
}

TEST_CASE("the engine dataset has the value range its suggested isovalues need", "[volume]")
{
    fs::path path = isoscope::test::datasetsDir() / "engine_256x256x128_uint8.nhdr";
    if (!fs::exists(path)) {
        WARN("skipped: no dataset " << path.string());
        return;
    }
    Volume volume = readVolumeFile(path);
    CHECK(volume.stats.min == 0.0);
    CHECK(volume.stats.max > 150.5); // the manifest suggests isovalues 60.5 and 150.5
    CHECK(volume.stats.max <= 255.0);
}
