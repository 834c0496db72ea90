// Volume sources read plane range by plane range (volume/volume_source.h):
// raw files read in parallel pieces, gzip NRRD inflated as slabs ask, and
// synthetic fields generated row by row on every core, each against the
// whole-volume reader or the field's own function.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <random>
#include <stdexcept>

#include "core/parallel_for.h"
#include "volume/synthetic.h"
#include "volume/volume_source.h"
#include "volume_test_support.h"

using namespace isoscope;
using namespace volumetest;

namespace {

// A volume whose every sample differs from its neighbours' (int16, so the byte order matters).
Volume ramp(std::array<uint32_t, 3> dims)
{
    Volume volume;
    volume.dims = dims;
    volume.type = ScalarType::Int16;
    volume.data.resize(volume.byteSize());
    for (uint64_t i = 0; i < volume.sampleCount(); ++i) {
        int16_t v = int16_t(uint16_t(((i * 2654435761u) >> 7) - 16000u)); // wraps, as the signed form overflowed
        std::memcpy(volume.data.data() + 2 * i, &v, 2);
    }
    return volume;
}

std::string header(const Volume& volume, const std::string& encoding, int64_t byteSkip = 0)
{
    return "NRRD0004\ntype: short\ndimension: 3\nsizes: " + sizes(volume.dims) +
           "\nendian: big\nencoding: " + encoding + "\nbyte skip: " + std::to_string(byteSkip) + "\n\n";
}

std::vector<std::byte> planes(const Volume& volume, uint32_t first, uint32_t count)
{
    uint64_t bytes = uint64_t(volume.dims[0]) * volume.dims[1] * 2;
    return {volume.data.begin() + std::ptrdiff_t(first * bytes), volume.data.begin() + std::ptrdiff_t((first + count) * bytes)};
}

std::vector<std::byte> read(VolumeSource& source, uint32_t first, uint32_t count)
{
    std::vector<std::byte> out(size_t(source.planeBytes() * count));
    source.readPlanes(first, count, out.data());
    return out;
}

} // namespace

TEST_CASE("parallelFor runs every item once and rethrows a body's error", "[volume][stream]")
{
    std::vector<std::atomic<int>> seen(10000);
    parallelFor(seen.size(), 8, [&](uint64_t i) { ++seen[i]; });
    for (auto& count : seen)
        REQUIRE(count == 1);
    REQUIRE_THROWS_WITH(parallelFor(1000, 8, [](uint64_t i) {
                            if (i == 517)
                                throw std::runtime_error("item 517 failed");
                        }),
                        "item 517 failed");
    parallelFor(0, 8, [](uint64_t) { FAIL("no items"); });
}

TEST_CASE("a raw NRRD read in parallel pieces gives the planes the whole read does, in host order", "[volume][stream]")
{
    // 2.8 MB a plane... 12 planes: a slab of several 8 MiB pieces, pieces ending inside planes.
    Volume volume = ramp({1201, 1187, 12});
    fs::path path = writeTestFile("pieces.nrrd", header(volume, "raw"), encodeSamples(volume, true));
    std::unique_ptr<VolumeSource> source = openFileSource(path);
    REQUIRE(source->grid().dims == volume.dims);
    REQUIRE(read(*source, 0, 12) == volume.data);
    REQUIRE(read(*source, 3, 7) == planes(volume, 3, 7));
    REQUIRE(read(*source, 11, 1) == planes(volume, 11, 1));
}

TEST_CASE("a gzip NRRD streams the planes of the whole read, in any order", "[volume][stream]")
{
    Volume volume = ramp({61, 47, 40});
    std::vector<std::byte> payload(6, std::byte{0x5a}); // byte skip 6: decompressed bytes before the samples
    std::vector<std::byte> samples = encodeSamples(volume, true);
    payload.insert(payload.end(), samples.begin(), samples.end());
    std::vector<std::byte> gzip = compress(payload, true);
    fs::path path = writeTestFile("stream_gzip.nrrd", header(volume, "gzip", 6), gzip);
    std::unique_ptr<VolumeSource> source = openFileSource(path);

    // As streamed extraction asks: windows that share planes with the one before.
    for (auto [first, count] : {std::pair{0u, 9u}, {6u, 10u}, {13u, 10u}, {21u, 3u}, {22u, 18u}})
        REQUIRE(read(*source, first, count) == planes(volume, first, count));
    // Back to the start (the stream starts again), a jump forward, a repeat of the kept planes.
    REQUIRE(read(*source, 0, 5) == planes(volume, 0, 5));
    REQUIRE(read(*source, 30, 4) == planes(volume, 30, 4));
    REQUIRE(read(*source, 31, 3) == planes(volume, 31, 3));
    REQUIRE(read(*source, 12, 2) == planes(volume, 12, 2));

    // Cut short: the planes past the cut fail, naming the file.
    std::vector<std::byte> cut(gzip.begin(), gzip.begin() + std::ptrdiff_t(gzip.size() / 2));
    fs::path cutPath = writeTestFile("stream_gzip_cut.nrrd", header(volume, "gzip", 6), cut);
    std::unique_ptr<VolumeSource> cutSource = openFileSource(cutPath);
    REQUIRE(read(*cutSource, 0, 2) == planes(volume, 0, 2));
    std::string message = errorMessage([&] { read(*cutSource, 2, 38); });
    CHECK(message.find("stream_gzip_cut.nrrd") != std::string::npos);
    CHECK(message.find("compressed data end") != std::string::npos);

    // Longer than the header says: found when the last plane is read.
    Volume fewer = volume;
    fewer.dims[2] = 39;
    fs::path longPath = writeTestFile("stream_gzip_long.nrrd", header(fewer, "gzip", 6), gzip);
    std::unique_ptr<VolumeSource> longSource = openFileSource(longPath);
    REQUIRE(read(*longSource, 0, 20) == planes(volume, 0, 20));
    CHECK(errorMessage([&] { read(*longSource, 20, 19); }).find("more than the header") != std::string::npos);
}

// The sphere's row writer against the formula itself, sqrt(x*x + y*y + z*z)
// rounded to float or to syntheticByte, bit for bit: every width around the
// cached row's 16 KiB and the 32-byte stores, the streamed benchmark's 4096,
// rows inside, across and outside the unit ball, and sorted rows that are
// not the grid (uneven spacing, repeats, all negative, all positive).
TEST_CASE("the sphere's row writer gives the formula's bytes and floats, bit for bit", "[volume][stream][synthetic]")
{
    SyntheticRowWriter checked = syntheticRowWriter("sphere"), ascending = syntheticRowWriterForAscendingXs("sphere");
    REQUIRE(checked);
    REQUIRE(ascending);
    auto formula = [](double x, double y, double z) { return std::sqrt(x * x + y * y + z * z); };
    auto checkWith = [&](SyntheticRowWriter row, const std::vector<double>& xs, double y, double z) -> uint64_t {
        std::vector<uint8_t> bytes(xs.size() + 64, 0xA5);
        std::vector<float> floats(xs.size() + 16, -7.0f);
        row(xs.data(), xs.size(), y, z, ScalarType::UInt8, reinterpret_cast<std::byte*>(bytes.data()));
        row(xs.data(), xs.size(), y, z, ScalarType::Float32, reinterpret_cast<std::byte*>(floats.data()));
        uint64_t wrong = 0;
        for (size_t i = 0; i < xs.size(); ++i) {
            double value = formula(xs[i], y, z);
            float expected = float(value);
            wrong += bytes[i] != syntheticByte(value);
            wrong += std::memcmp(&floats[i], &expected, 4) != 0;
        }
        for (size_t i = xs.size(); i < bytes.size(); ++i) // nothing written past the row
            wrong += bytes[i] != 0xA5;
        for (size_t i = xs.size(); i < floats.size(); ++i)
            wrong += floats[i] != -7.0f;
        return wrong;
    };
    // Both writers where xs ascend, the checking one alone where not.
    auto check = [&](const std::vector<double>& xs, double y, double z, bool sorted = true) {
        return checkWith(checked, xs, y, z) + (sorted ? checkWith(ascending, xs, y, z) : 0);
    };
    for (uint32_t width : {2u, 3u, 5u, 31u, 32u, 33u, 63u, 64u, 65u, 255u, 256u, 257u, 4095u, 4096u, 4097u, 16383u,
                           16384u, 16385u}) {
        std::vector<double> xs(width);
        for (uint32_t i = 0; i < width; ++i)
            xs[i] = syntheticCoordinate(i, width);
        uint64_t wrong = 0;
        uint32_t ny = width > 5000 ? 9 : 41, nz = width > 5000 ? 7 : 37;
        for (uint32_t j = 0; j < ny; ++j)
            for (uint32_t k = 0; k < nz; ++k)
                wrong += check(xs, syntheticCoordinate(j, ny), syntheticCoordinate(k, nz));
        INFO("grid rows of " << width);
        REQUIRE(wrong == 0);
    }
    // The streamed benchmark's rows: 4096 samples at (y, z) of its 4096 x 6144 planes.
    {
        std::vector<double> xs(4096);
        for (uint32_t i = 0; i < 4096; ++i)
            xs[i] = syntheticCoordinate(i, 4096);
        uint64_t wrong = 0;
        for (uint32_t j = 0; j < 4096; j += 97)
            for (uint32_t k = 0; k < 6144; k += 331)
                wrong += check(xs, syntheticCoordinate(j, 4096), syntheticCoordinate(k, 6144));
        REQUIRE(wrong == 0);
    }
    std::mt19937_64 random(27);
    for (int trial = 0; trial < 200; ++trial) {
        size_t width = 1 + random() % 3000;
        double low = std::uniform_real_distribution<double>(-2.0, 0.5)(random);
        double high = low + std::uniform_real_distribution<double>(0.0, 2.5)(random);
        std::vector<double> xs(width);
        for (double& x : xs)
            x = std::uniform_real_distribution<double>(low, high)(random);
        if (trial % 5 == 0)
            for (size_t i = 1; i < width; i += 3)
                xs[i] = xs[i - 1]; // repeats
        std::sort(xs.begin(), xs.end());
        double y = std::uniform_real_distribution<double>(-1.2, 1.2)(random);
        double z = std::uniform_real_distribution<double>(-1.2, 1.2)(random);
        INFO("trial " << trial << ", " << width << " samples on [" << low << ", " << high << "], y " << y << ", z " << z);
        REQUIRE(check(xs, y, z) == 0);
        std::shuffle(xs.begin(), xs.end(), random); // unsorted: the sample-by-sample path
        REQUIRE(check(xs, y, z, std::is_sorted(xs.begin(), xs.end())) == 0);
    }
}

TEST_CASE("synthetic row writers give the field's values sample for sample, float32 and uint8", "[volume][stream]")
{
    std::array<uint32_t, 3> dims{257, 33, 29};
    for (std::string name : syntheticFieldNames()) {
        SyntheticFunction field = syntheticFunction(name);
        SyntheticRowWriter row = syntheticRowWriter(name);
        REQUIRE(field);
        REQUIRE(row);
        std::vector<double> xs(dims[0]);
        for (uint32_t i = 0; i < dims[0]; ++i)
            xs[i] = syntheticCoordinate(i, dims[0]);
        std::vector<float> floats(dims[0]);
        std::vector<uint8_t> bytes(dims[0]);
        uint64_t mismatches = 0;
        for (uint32_t k = 0; k < dims[2]; ++k)
            for (uint32_t j = 0; j < dims[1]; ++j) {
                double y = syntheticCoordinate(j, dims[1]), z = syntheticCoordinate(k, dims[2]);
                row(xs.data(), dims[0], y, z, ScalarType::Float32, reinterpret_cast<std::byte*>(floats.data()));
                row(xs.data(), dims[0], y, z, ScalarType::UInt8, reinterpret_cast<std::byte*>(bytes.data()));
                for (uint32_t i = 0; i < dims[0]; ++i) {
                    double value = field(xs[i], y, z);
                    float expected = float(value);
                    mismatches += std::memcmp(&floats[i], &expected, 4) != 0;
                    mismatches += bytes[i] != syntheticByte(value);
                }
            }
        INFO(name);
        REQUIRE(mismatches == 0);
    }
    // Bytes at and next to the rounding ties of 127.5 (v + 1): on the sphere's x axis the field is |x|.
    std::vector<double> ties;
    for (int k = 0; k < 256; ++k) {
        double v = (k + 0.5) / 127.5 - 1.0;
        for (double t : {v, std::nextafter(v, 2.0), std::nextafter(v, -2.0)})
            ties.push_back(t);
    }
    std::vector<uint8_t> bytes(ties.size());
    syntheticRowWriter("sphere")(ties.data(), ties.size(), 0.0, 0.0, ScalarType::UInt8,
                                 reinterpret_cast<std::byte*>(bytes.data()));
    for (size_t i = 0; i < ties.size(); ++i) {
        INFO("x = " << ties[i]);
        REQUIRE(bytes[i] == syntheticByte(syntheticFunction("sphere")(ties[i], 0.0, 0.0)));
    }
    // The uint8 sphere along sorted x takes its bytes from the steps between
    // them (no square root): wide rows, many steps a row, every (y, z) of a
    // grid, against the field's bytes; rows above the cached row's 16 KiB too.
    for (uint32_t width : {16411u, 4099u, 1000u, 37u}) {
        std::vector<double> xs(width);
        for (uint32_t i = 0; i < width; ++i)
            xs[i] = syntheticCoordinate(i, width);
        std::vector<uint8_t> row(width);
        uint64_t wrong = 0;
        for (uint32_t j = 0; j < 61; ++j)
            for (uint32_t k = 0; k < 53; ++k) {
                double y = syntheticCoordinate(j, 61), z = syntheticCoordinate(k, 53);
                syntheticRowWriter("sphere")(xs.data(), width, y, z, ScalarType::UInt8,
                                             reinterpret_cast<std::byte*>(row.data()));
                for (uint32_t i = 0; i < width; ++i)
                    wrong += row[i] != syntheticByte(syntheticFunction("sphere")(xs[i], y, z));
            }
        INFO("sphere rows of " << width);
        REQUIRE(wrong == 0);
    }
    // The streamed source (rows on every core) against the in-core generator.
    std::unique_ptr<VolumeSource> torus = openSyntheticSource("torus:45x38x21");
    REQUIRE(readWholeVolume(*torus).data == makeSyntheticVolume("torus:45x38x21").data);
}
