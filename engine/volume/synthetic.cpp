#include "volume/synthetic.h"

#include <algorithm>
#include <bit>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>

#include <immintrin.h>
#include <numbers>

#include "core/error.h"
#include "core/host_memory.h"
#include "core/parallel_for.h"
#include "core/text.h"

namespace isoscope {

namespace {

using FieldFunction = double (*)(double x, double y, double z);

[[gnu::always_inline]] inline double cayley(double x, double y, double z)
{
    return 1.0 - 16.0 * x * y * z - 4.0 * (x * x + y * y + z * z);
}

[[gnu::always_inline]] inline double sphere(double x, double y, double z)
{
    return std::sqrt(x * x + y * y + z * z);
}

[[gnu::always_inline]] inline double torus(double x, double y, double z)
{
    double ring = std::sqrt(x * x + y * y) - 0.55;
    return ring * ring + z * z;
}

[[gnu::always_inline]] inline double gyroid(double x, double y, double z)
{
    return std::sin(6.0 * x) * std::cos(6.0 * y) + std::sin(6.0 * y) * std::cos(6.0 * z) +
           std::sin(6.0 * z) * std::cos(6.0 * x);
}

// Marschner & Lobb, "An evaluation of reconstruction filters for volume
// rendering", Visualization '94, section 5: ρ(x,y,z) with α = 0.25, f_M = 6.
[[gnu::always_inline]] inline double marschnerLobb(double x, double y, double z)
{
    constexpr double alpha = 0.25;
    constexpr double fM = 6.0;
    constexpr double pi = std::numbers::pi;
    double r = std::sqrt(x * x + y * y);
    double rhoR = std::cos(2.0 * pi * fM * std::cos(pi * r / 2.0));
    return (1.0 - std::sin(pi * z / 2.0) + alpha * (1.0 + rhoR)) / (2.0 * (1.0 + alpha));
}

// syntheticByte without a call to round or a branch: trunc plus the
// fraction's test is round-half-away-from-zero for the positive values kept,
// NaN and what rounds to at most 0 clamp to 0, from 254.5 on to 255; the
// loop it sits in vectorizes.
[[gnu::always_inline]] inline int32_t roundedByte(double value)
{
    double scaled = 127.5 * (value + 1.0);
    double clamped = scaled > 0.0 ? scaled : 0.0; // NaN too
    clamped = clamped < 254.5 ? clamped : 254.5;
    int32_t whole = int32_t(clamped);
    return whole + (clamped - double(whole) >= 0.5 ? 1 : 0);
}

// A row out of the cache into `out` with streaming stores: `out` is staging
// or a new volume the CPU does not read back soon, and a plain store reads
// each line for ownership first, doubling a write-bound generator's memory
// traffic. Callers fence (_mm_sfence) before another thread or the copy
// engine takes the rows.
[[gnu::always_inline]] inline void streamRowOut(std::byte* out, const void* in, size_t bytes)
{
    const auto* source = static_cast<const std::byte*>(in);
    size_t head = std::min(bytes, size_t((16 - (reinterpret_cast<uintptr_t>(out) & 15)) & 15));
    std::memcpy(out, source, head);
    size_t i = head;
    for (; i + 16 <= bytes; i += 16)
        _mm_stream_si128(reinterpret_cast<__m128i*>(out + i), _mm_loadu_si128(reinterpret_cast<const __m128i*>(source + i)));
    std::memcpy(out + i, source + i, bytes - i);
}

// Rows in runs that stay in the cache, then streamed out whole. The
// field inlined, no call and no branch per sample: the loops vectorize.
// Inlined whole (GCC inlines nothing into a function of another target
// otherwise, and the AVX2 copy below would call the baseline one).
template <FieldFunction F>
[[gnu::always_inline]] inline void writeRowBody(const double* xs, size_t count, double y, double z, ScalarType type, std::byte* out)
{
    constexpr size_t run = 1024;
    alignas(64) float floats[run];
    alignas(64) int32_t ints[run];
    alignas(64) uint8_t bytes[run];
    for (size_t start = 0; start < count; start += run) {
        size_t n = std::min(run, count - start);
        if (type == ScalarType::UInt8) {
            for (size_t i = 0; i < n; ++i)
                ints[i] = roundedByte(F(xs[start + i], y, z));
            for (size_t i = 0; i < n; ++i)
                bytes[i] = uint8_t(ints[i]);
            streamRowOut(out + start, bytes, n);
        } else {
            for (size_t i = 0; i < n; ++i)
                floats[i] = float(F(xs[start + i], y, z));
            streamRowOut(out + start * sizeof(float), floats, n * sizeof(float));
        }
    }
    _mm_sfence();
}

// The same loops in 256-bit vectors where the host has AVX2 (the baseline
// x86-64 build has 128-bit ones); no FMA, so every operation rounds as in
// the scalar evaluation.
template <FieldFunction F>
__attribute__((target("avx2"))) void writeRowAvx2(const double* xs, size_t count, double y, double z, ScalarType type,
                                                  std::byte* out)
{
    writeRowBody<F>(xs, count, y, z, type, out);
}

bool hostHasAvx2()
{
    static const bool avx2 = __builtin_cpu_supports("avx2");
    return avx2;
}

template <FieldFunction F>
void writeRow(const double* xs, size_t count, double y, double z, ScalarType type, std::byte* out)
{
    if (hostHasAvx2())
        writeRowAvx2<F>(xs, count, y, z, type, out);
    else
        writeRowBody<F>(xs, count, y, z, type, out);
}

// The sphere's bytes without a square root a sample: roundedByte(sqrt(s)) is a
// non-decreasing step function of s = x² + y² + z², so byte k begins at the
// least s whose byte is k (step(k), found once by bisection over the bit
// patterns of non-negative doubles, which order as their values).
struct SphereByteSteps {
    double at[261]; // step(k) = at[k + 2] for k = -2..258; -inf below 1, +inf above 255
    double step(int32_t k) const { return at[k + 2]; }
};

const SphereByteSteps& sphereByteSteps()
{
    static const SphereByteSteps steps = [] {
        SphereByteSteps result;
        for (int32_t k = -2; k <= 258; ++k)
            result.at[k + 2] = k < 1 ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
        for (int32_t k = 1; k < 256; ++k) {
            uint64_t low = 0, high = std::bit_cast<uint64_t>(std::numeric_limits<double>::infinity());
            while (low < high) { // the least pattern whose byte is at least k
                uint64_t middle = low + (high - low) / 2;
                if (roundedByte(std::sqrt(std::bit_cast<double>(middle))) >= k)
                    high = middle;
                else
                    low = middle + 1;
            }
            result.at[k + 2] = std::bit_cast<double>(low);
        }
        return result;
    }();
    return steps;
}

// The first index j in [low, high) where pred(j) holds (pred false, then
// true), or high: `guess` first, then its neighbour, then bisection of what
// is left (a good guess costs two evaluations).
template <typename Pred>
size_t firstWhere(size_t low, size_t high, size_t guess, Pred pred)
{
    if (guess >= low && guess < high) {
        if (pred(guess)) {
            high = guess;
            if (guess > low && !pred(guess - 1))
                low = guess;
        } else {
            low = guess + 1;
            if (low < high && pred(low))
                high = low;
        }
    }
    while (low < high) {
        size_t middle = low + (high - low) / 2;
        if (pred(middle))
            high = middle;
        else
            low = middle + 1;
    }
    return low;
}

// Whether xs never falls (NaN counts as falling).
__attribute__((target("avx2"))) bool ascending(const double* xs, size_t count)
{
    __m256d unsorted = _mm256_setzero_pd();
    size_t i = 1;
    for (; i + 4 <= count; i += 4) // not (a <= b): NaN too
        unsorted = _mm256_or_pd(unsorted, _mm256_cmp_pd(_mm256_loadu_pd(xs + i - 1), _mm256_loadu_pd(xs + i), _CMP_NLE_UQ));
    bool sorted = _mm256_movemask_pd(unsorted) == 0;
    for (; i < count; ++i)
        sorted &= xs[i - 1] <= xs[i];
    return sorted;
}

// A row of the uint8 sphere along sorted x: s = x² + y² + z² falls while
// x < 0 and rises after, so the row is runs of equal bytes, each ending where
// s crosses the next step. The run's end is guessed from x = ±sqrt(step - y² -
// z²) on the row's (near even) spacing and settled by comparing the samples'
// own s with the step, exactly; the run is then written whole. Identical to
// roundedByte(sphere(x, y, z)) sample for sample. False, writing nothing,
// where xs is not sorted.
__attribute__((target("avx2"))) bool writeSortedSphereBytes(const double* xs, size_t count, double y, double z,
                                                            std::byte* out)
{
    if (count == 0 || !ascending(xs, count))
        return false;

    const SphereByteSteps& steps = sphereByteSteps();
    const double yy = y * y, zz = z * z;
    auto s = [&](size_t j) { return xs[j] * xs[j] + yy + zz; }; // as sphere(): (x*x + y*y) + z*z
    // Index of x on the row's mean spacing: a guess, never trusted.
    const double first = xs[0], perX = count > 1 && xs[count - 1] > first ? double(count - 1) / (xs[count - 1] - first) : 0.0;
    auto indexNear = [&](double x) {
        double at = (x - first) * perX;
        return at >= 0.0 && at < double(count) ? size_t(at) : count;
    };
    size_t middle = size_t(std::partition_point(xs, xs + count, [](double x) { return x < 0.0; }) - xs);
    size_t i = 0;
    int32_t k = i < middle ? roundedByte(std::sqrt(s(0))) : 0;
    while (i < middle) { // falling: the run of byte k ends where s < step(k)
        double step = steps.step(k);
        double rest = step - yy - zz;
        size_t end = firstWhere(i + 1, middle, rest > 0.0 ? indexNear(-std::sqrt(rest)) : middle,
                                [&](size_t j) { return s(j) < step; });
        std::memset(out + i, k, end - i);
        if ((i = end) < middle)
            for (double next = s(i); next < steps.step(k);)
                --k;
    }
    if (middle < count)
        k = roundedByte(std::sqrt(s(middle)));
    while (i < count) { // rising: the run of byte k ends where s >= step(k + 1)
        double step = steps.step(k + 1);
        double rest = step - yy - zz;
        size_t end = firstWhere(i + 1, count, rest >= 0.0 ? indexNear(std::sqrt(rest)) : i + 1,
                                [&](size_t j) { return s(j) >= step; });
        std::memset(out + i, k, end - i);
        if ((i = end) < count)
            for (double next = s(i); next >= steps.step(k + 1);)
                ++k;
    }
    return true;
}

// Bytes k on [from, to) of a row with 32 bytes to spare past its end, in
// overlapping 32-byte stores (what lies past `to` the next run overwrites).
__attribute__((target("avx2"), always_inline)) inline void fillRun(std::byte* row, size_t from, size_t to, int32_t k)
{
    __m256i bytes = _mm256_set1_epi8(char(k));
    for (size_t p = from; p < to; p += 32)
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(row + p), bytes);
}

// (sign * sqrt(max(step(k) - yy - zz, 0)) - first) * perX for k = low + 1..high
// into guesses[k - low - 1], four at once; reads at most 3 steps past high
// (the table has 258's) and writes at most 3 guesses past.
__attribute__((target("avx2"), always_inline)) inline void guessCrossings(const SphereByteSteps& steps, double yy, double zz,
                                                                             double first, double perX, int32_t low,
                                                                             int32_t high, double sign, double* guesses)
{
    const __m256d origin = _mm256_set1_pd(first), scale = _mm256_set1_pd(perX), signs = _mm256_set1_pd(sign),
                  ys = _mm256_set1_pd(yy), zs = _mm256_set1_pd(zz);
    for (int32_t k = low + 1; k <= high; k += 4) {
        __m256d rest = _mm256_sub_pd(_mm256_sub_pd(_mm256_loadu_pd(&steps.at[k + 2]), ys), zs);
        __m256d root = _mm256_sqrt_pd(_mm256_max_pd(rest, _mm256_setzero_pd()));
        _mm256_storeu_pd(&guesses[k - low - 1], _mm256_mul_pd(_mm256_sub_pd(_mm256_mul_pd(signs, root), origin), scale));
    }
}

// The uint8 sphere's row by its runs' boundaries, into a cached row of at
// least count + 32 bytes: byte k ends (falling half) or begins (rising half)
// at the first sample whose s = x² + y² + z² crosses step(k), each boundary
// found on its own (guessed from x = ±sqrt(step - y² - z²), settled by
// comparing the samples' own s with the step, exactly), so the square roots
// run four at once and no boundary waits for the one before; the runs are
// then filled with overlapping 32-byte stores, left to right. The same bytes
// as writeSortedSphereBytes. False, writing nothing, where xs is not sorted
// (checked unless the caller vouches for it: the check cost more than the
// runs on a 4096-sample row).
template <bool kCheckSorted>
__attribute__((target("avx2"))) bool writeSphereBytesByBoundaries(const double* xs, size_t count, double y, double z,
                                                                  std::byte* row)
{
    if constexpr (kCheckSorted) {
        if (!ascending(xs, count))
            return false;
    }
    if (count == 0)
        return false;

    const SphereByteSteps& steps = sphereByteSteps();
    const double yy = y * y, zz = z * z;
    auto s = [&](size_t j) { return xs[j] * xs[j] + yy + zz; }; // as sphere(): (x*x + y*y) + z*z
    auto byteAt = [&](size_t j) { return roundedByte(std::sqrt(s(j))); };
    const double first = xs[0], perX = count > 1 && xs[count - 1] > first ? double(count - 1) / (xs[count - 1] - first) : 0.0;
    // Where x crosses ±sqrt(step(k) - y² - z²) on the row's mean spacing, for
    // k = low + 1..high (at most 255 of them): guesses, never trusted.
    alignas(32) double guesses[260];
    // The first j in [low, high) where pred(j), pred(low - 1) false and
    // pred(high - 1) true: the guess's next index, checked, else bisection.
    auto boundary = [&](size_t low, size_t high, double at, auto pred) {
        size_t g = at >= 0.0 && at < double(count) ? size_t(at) + 1 : high;
        if (g > low && g < high && pred(g) && !pred(g - 1))
            return g;
        return firstWhere(low, high, g - 1, pred);
    };

    size_t middle = size_t(std::partition_point(xs, xs + count, [](double x) { return x < 0.0; }) - xs);
    if (middle > 0) { // falling: byte k on [B(k + 1), B(k)), B(k) the first j with s(j) < step(k)
        int32_t high = byteAt(0), low = byteAt(middle - 1);
        guessCrossings(steps, yy, zz, first, perX, low, high, -1.0, guesses);
        size_t from = 0;
        for (int32_t k = high; k > low; --k) {
            double step = steps.step(k);
            size_t end = boundary(1, middle, guesses[k - low - 1], [&](size_t j) { return s(j) < step; });
            fillRun(row, from, end, k);
            from = end;
        }
        fillRun(row, from, middle, low);
    }
    if (middle < count) { // rising: byte k on [A(k), A(k + 1)), A(k) the first j with s(j) >= step(k)
        int32_t low = byteAt(middle), high = byteAt(count - 1);
        guessCrossings(steps, yy, zz, first, perX, low, high, 1.0, guesses);
        size_t from = middle;
        for (int32_t k = low; k < high; ++k) {
            double step = steps.step(k + 1);
            size_t end = boundary(middle + 1, count, guesses[k - low], [&](size_t j) { return s(j) >= step; });
            fillRun(row, from, end, k);
            from = end;
        }
        fillRun(row, from, count, high);
    }
    return true;
}

template <bool kCheckSorted>
void writeSphereRowChecked(const double* xs, size_t count, double y, double z, ScalarType type, std::byte* out)
{
    // The runs into a row in the cache (short runs would each read their
    // lines of `out` for ownership), then the row streamed out; 32 bytes
    // past it for the runs' last overlapping store.
    constexpr size_t kCachedRow = 16384;
    alignas(64) std::byte row[kCachedRow + 32];
    if (type == ScalarType::UInt8 && hostHasAvx2()) {
        if (count <= kCachedRow ? writeSphereBytesByBoundaries<kCheckSorted>(xs, count, y, z, row)
                                : writeSortedSphereBytes(xs, count, y, z, out)) {
            if (count <= kCachedRow) {
                streamRowOut(out, row, count);
                _mm_sfence();
            }
            return;
        }
    }
    writeRow<sphere>(xs, count, y, z, type, out);
}

struct Field {
    std::string_view name;
    FieldFunction function;
    SyntheticRowWriter row;
    SyntheticRowWriter ascendingRow; // xs ascending, no NaN: the caller checked once
};

constexpr Field fields[] = {
    {"cayley", cayley, writeRow<cayley>, writeRow<cayley>},
    {"sphere", sphere, writeSphereRowChecked<true>, writeSphereRowChecked<false>},
    {"torus", torus, writeRow<torus>, writeRow<torus>},
    {"gyroid", gyroid, writeRow<gyroid>, writeRow<gyroid>},
    {"marschner-lobb", marschnerLobb, writeRow<marschnerLobb>, writeRow<marschnerLobb>},
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

SyntheticRowWriter syntheticRowWriterForAscendingXs(std::string_view name)
{
    for (const Field& field : fields)
        if (field.name == name)
            return field.ascendingRow;
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
    std::array<uint32_t, 3> dims = volume.dims;
    checkHostMemory(volume.byteSize(), "synthetic volume '" + std::string(spec) + "'");
    volume.data.resize(size_t(volume.byteSize()));

    std::vector<double> xs = axisCoordinates(dims[0]), ys = axisCoordinates(dims[1]), zs = axisCoordinates(dims[2]);
    std::string_view name = spec.substr(0, spec.find(':'));
    SyntheticRowWriter row = std::is_sorted(xs.begin(), xs.end()) ? syntheticRowWriterForAscendingXs(name)
                                                                   : syntheticRowWriter(name);
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
