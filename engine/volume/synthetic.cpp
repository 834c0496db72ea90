#include "volume/synthetic.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>
#include <numbers>

#include "core/error.h"
#include "core/host_memory.h"
#include "core/parallel_for.h"
#include "core/text.h"

namespace isoscope {

namespace {

using FieldFunction = double (*)(double x, double y, double z);

double cayley(double x, double y, double z)
{
    return 1.0 - 16.0 * x * y * z - 4.0 * (x * x + y * y + z * z);
}

double sphere(double x, double y, double z)
{
    return std::sqrt(x * x + y * y + z * z);
}

double torus(double x, double y, double z)
{
    double ring = std::sqrt(x * x + y * y) - 0.55;
    return ring * ring + z * z;
}

double gyroid(double x, double y, double z)
{
    return std::sin(6.0 * x) * std::cos(6.0 * y) + std::sin(6.0 * y) * std::cos(6.0 * z) +
           std::sin(6.0 * z) * std::cos(6.0 * x);
}

// Marschner & Lobb, "An evaluation of reconstruction filters for volume
// rendering", Visualization '94, section 5: ρ(x,y,z) with α = 0.25, f_M = 6.
double marschnerLobb(double x, double y, double z)
{
    constexpr double alpha = 0.25;
    constexpr double fM = 6.0;
    constexpr double pi = std::numbers::pi;
    double r = std::sqrt(x * x + y * y);
    double rhoR = std::cos(2.0 * pi * fM * std::cos(pi * r / 2.0));
    return (1.0 - std::sin(pi * z / 2.0) + alpha * (1.0 + rhoR)) / (2.0 * (1.0 + alpha));
}

// syntheticByte without a call to round: trunc plus the fraction's test is
// round-half-away-from-zero for the positive values kept, and the loop it
// sits in stays free of calls.
inline uint8_t roundedByte(double value)
{
    double scaled = 127.5 * (value + 1.0);
    if (!(scaled > 0.0)) // NaN and what rounds to at most 0
        return 0;
    if (scaled >= 254.5)
        return 255;
    double whole = double(int32_t(scaled));
    return uint8_t(int32_t(whole) + (scaled - whole >= 0.5 ? 1 : 0));
}

// Rows in runs that stay in the cache, then copied out whole: `out` may be
// write-combined staging memory, which wants long sequential stores.
template <FieldFunction F>
void writeRow(const double* xs, size_t count, double y, double z, ScalarType type, std::byte* out)
{
    constexpr size_t run = 1024;
    alignas(64) float floats[run];
    alignas(64) uint8_t bytes[run];
    for (size_t start = 0; start < count; start += run) {
        size_t n = std::min(run, count - start);
        if (type == ScalarType::UInt8) {
            for (size_t i = 0; i < n; ++i)
                bytes[i] = roundedByte(F(xs[start + i], y, z));
            std::memcpy(out + start, bytes, n);
        } else {
            for (size_t i = 0; i < n; ++i)
                floats[i] = float(F(xs[start + i], y, z));
            std::memcpy(out + start * sizeof(float), floats, n * sizeof(float));
        }
    }
}

struct Field {
    std::string_view name;
    FieldFunction function;
    SyntheticRowWriter row;
};

constexpr Field fields[] = {
    {"cayley", cayley, writeRow<cayley>},
    {"sphere", sphere, writeRow<sphere>},
    {"torus", torus, writeRow<torus>},
    {"gyroid", gyroid, writeRow<gyroid>},
    {"marschner-lobb", marschnerLobb, writeRow<marschnerLobb>},
};

FieldFunction findField(std::string_view name)
{
    for (const Field& field : fields)
        if (field.name == name)
            return field.function;
    return nullptr;
}

std::string validForms()
{
    return "valid forms are NAME:N (N³ samples) or NAME:NXxNYxNZ with every size at least 2, NAME one of " +
           join(syntheticFieldNames(), ", ") +
           " (e.g. cayley:64, torus:128x128x64)";
}

[[noreturn]] void failSpec(std::string_view spec, const std::string& problem)
{
    fail("synthetic volume '" + std::string(spec) + "': " + problem + "; " + validForms());
}

// "64" or "64x32x16" into three sizes, each at least 2.
std::array<uint32_t, 3> parseSizes(std::string_view spec, std::string_view text)
{
    std::array<uint32_t, 3> dims{};
    size_t count = 0;
    const char* cursor = text.data();
    const char* end = text.data() + text.size();
    while (true) {
        uint64_t size = 0;
        auto [next, error] = std::from_chars(cursor, end, size);
        if (error == std::errc::result_out_of_range || (error == std::errc() && size > UINT32_MAX))
            failSpec(spec, "size '" + std::string(cursor, next) + "' is too large");
        if (error != std::errc() || count == 3)
            failSpec(spec, "cannot read sizes from '" + std::string(text) + "'");
        if (size < 2)
            failSpec(spec, "size " + std::to_string(size) + " is below 2 (a grid needs two samples per axis)");
        dims[count++] = uint32_t(size);
        if (next == end)
            break;
        if (*next != 'x' && *next != 'X')
            failSpec(spec, "cannot read sizes from '" + std::string(text) + "'");
        cursor = next + 1;
    }
    if (count == 1)
        return {dims[0], dims[0], dims[0]};
    if (count != 3)
        failSpec(spec, "give one size or three, not " + std::to_string(count));
    return dims;
}

// x_i = -1 + 2i/(N-1), exactly as documented, not origin + i*spacing (which
// rounds differently at the far end).
std::vector<double> axisCoordinates(uint32_t n)
{
    std::vector<double> coordinates(n);
    for (uint32_t i = 0; i < n; ++i)
        coordinates[i] = syntheticCoordinate(i, n);
    return coordinates;
}

} // namespace

SyntheticFunction syntheticFunction(std::string_view name)
{
    return findField(name);
}

SyntheticRowWriter syntheticRowWriter(std::string_view name)
{
    for (const Field& field : fields)
        if (field.name == name)
            return field.row;
    return nullptr;
}

double syntheticCoordinate(uint32_t i, uint32_t n)
{
    return -1.0 + 2.0 * double(i) / double(n - 1);
}

uint8_t syntheticByte(double value)
{
    double scaled = std::round(127.5 * (value + 1.0));
    return uint8_t(std::isnan(scaled) ? 0.0 : std::clamp(scaled, 0.0, 255.0));
}

std::vector<std::string> syntheticFieldNames()
{
    std::vector<std::string> names;
    for (const Field& field : fields)
        names.emplace_back(field.name);
    return names;
}

bool isSyntheticSpec(std::string_view text)
{
    size_t colon = text.find(':');
    if (colon == std::string_view::npos || colon < 2 || colon + 1 == text.size())
        return false;
    for (char c : text.substr(0, colon))
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_'))
            return false;
    return text.substr(colon + 1).find_first_of("/\\.:") == std::string_view::npos;
}

double evaluateSyntheticField(std::string_view name, double x, double y, double z)
{
    FieldFunction function = findField(name);
    if (!function)
        failSpec(name, "unknown field '" + std::string(name) + "'");
    return function(x, y, z);
}

Volume makeSyntheticGrid(std::string_view spec)
{
    size_t colon = spec.find(':');
    if (colon == std::string_view::npos)
        failSpec(spec, "no ':' between the name and the sizes");
    std::string_view name = spec.substr(0, colon);
    FieldFunction function = findField(name);
    if (!function)
        failSpec(spec, "unknown field '" + std::string(name) + "'");
    std::array<uint32_t, 3> dims = parseSizes(spec, spec.substr(colon + 1));

    // Three sizes under 2^32 cannot overflow in 128 bits; 2^40 bytes is far
    // beyond any device, so refuse before allocating.
    unsigned __int128 bytes = (unsigned __int128)dims[0] * dims[1] * dims[2] * sizeof(float);
    if (bytes > (unsigned __int128)1 << 40)
        failSpec(spec, "the volume would need more than 1 TiB");

    Volume volume;
    volume.dims = dims;
    volume.type = ScalarType::Float32;
    volume.source = std::string(spec);
    for (int axis = 0; axis < 3; ++axis) {
        volume.origin[axis] = -1.0;
        volume.spacing[axis] = 2.0 / double(dims[axis] - 1);
    }
    return volume;
}

Volume makeSyntheticVolume(std::string_view spec)
{
    Volume volume = makeSyntheticGrid(spec);
    SyntheticRowWriter row = syntheticRowWriter(spec.substr(0, spec.find(':')));
    std::array<uint32_t, 3> dims = volume.dims;
    checkHostMemory(volume.byteSize(), "synthetic volume '" + std::string(spec) + "'");
    volume.data.resize(size_t(volume.byteSize()));

    std::vector<double> xs = axisCoordinates(dims[0]), ys = axisCoordinates(dims[1]), zs = axisCoordinates(dims[2]);
    uint64_t rowBytes = uint64_t(dims[0]) * sizeof(float);
    parallelFor(dims[2], hostThreads(), [&](uint64_t k) {
        for (uint32_t j = 0; j < dims[1]; ++j)
            row(xs.data(), dims[0], ys[j], zs[k], ScalarType::Float32,
                volume.data.data() + (k * dims[1] + j) * rowBytes);
    });
    computeStats(volume);
    return volume;
}

} // namespace isoscope
