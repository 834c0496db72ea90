#include "volume/volume.h"

#include "core/parallel_for.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

namespace isoscope {

size_t scalarSize(ScalarType type)
{
    switch (type) {
    case ScalarType::UInt8: return 1;
    case ScalarType::UInt16: return 2;
    case ScalarType::Int16: return 2;
    case ScalarType::Float32: return 4;
    }
    return 0;
}

std::string_view scalarName(ScalarType type)
{
    switch (type) {
    case ScalarType::UInt8: return "uint8";
    case ScalarType::UInt16: return "uint16";
    case ScalarType::Int16: return "int16";
    case ScalarType::Float32: return "float32";
    }
    return "unknown";
}

// The names isoscope writes, plus the C spellings users type on the command
// line. Format-specific spellings (NRRD's "unsigned short int", MetaImage's
// MET_USHORT, VTK's unsigned_short) stay in their readers.
std::optional<ScalarType> parseScalarName(std::string_view name)
{
    struct Spelling {
        std::string_view name;
        ScalarType type;
    };
    static const Spelling spellings[] = {
        {"uint8", ScalarType::UInt8},     {"uchar", ScalarType::UInt8},    {"unsigned char", ScalarType::UInt8},
        {"u8", ScalarType::UInt8},        {"uint16", ScalarType::UInt16},  {"ushort", ScalarType::UInt16},
        {"unsigned short", ScalarType::UInt16}, {"u16", ScalarType::UInt16}, {"int16", ScalarType::Int16},
        {"short", ScalarType::Int16},     {"i16", ScalarType::Int16},      {"float32", ScalarType::Float32},
        {"float", ScalarType::Float32},   {"f32", ScalarType::Float32},
    };
    for (const Spelling& spelling : spellings)
        if (spelling.name == name)
            return spelling.type;
    return std::nullopt;
}

template <typename T>
static T loadSample(const std::byte* data, uint64_t i)
{
    T value;
    std::memcpy(&value, data + i * sizeof(T), sizeof(T)); // data has no alignment guarantee for T
    return value;
}

float sampleValue(const std::byte* samples, ScalarType type, uint64_t i)
{
    switch (type) {
    case ScalarType::UInt8: return float(loadSample<uint8_t>(samples, i));
    case ScalarType::UInt16: return float(loadSample<uint16_t>(samples, i));
    case ScalarType::Int16: return float(loadSample<int16_t>(samples, i));
    case ScalarType::Float32: return loadSample<float>(samples, i);
    }
    return 0.0f;
}

float Volume::valueAt(uint64_t i) const { return sampleValue(data.data(), type, i); }

namespace {

struct PartialStats {
    double min = std::numeric_limits<double>::infinity();
    double max = -std::numeric_limits<double>::infinity();
    double sum = 0.0;
    uint64_t nonFinite = 0;
};

template <typename T>
PartialStats partialStatsOf(const std::byte* data, uint64_t first, uint64_t end)
{
    PartialStats p;
    for (uint64_t i = first; i < end; ++i) {
        double value = double(loadSample<T>(data, i));
        if constexpr (std::is_floating_point_v<T>) {
            if (!std::isfinite(value)) {
                ++p.nonFinite;
                continue;
            }
        }
        p.min = std::min(p.min, value);
        p.max = std::max(p.max, value);
        p.sum += value;
    }
    return p;
}

// Chunks of a fixed size, summed in order: the mean does not depend on how
// many cores the host has. One core took seconds for a GiB-sized volume.
constexpr uint64_t kStatsChunk = uint64_t(1) << 22;

template <typename T>
VolumeStats statsOf(const std::byte* data, uint64_t count)
{
    std::vector<PartialStats> parts((count + kStatsChunk - 1) / kStatsChunk);
    parallelFor(parts.size(), hostThreads(), [&](uint64_t c) {
        parts[c] = partialStatsOf<T>(data, c * kStatsChunk, std::min(count, (c + 1) * kStatsChunk));
    });
    PartialStats total;
    for (const PartialStats& p : parts) {
        total.min = std::min(total.min, p.min);
        total.max = std::max(total.max, p.max);
        total.sum += p.sum;
        total.nonFinite += p.nonFinite;
    }
    VolumeStats stats;
    stats.nonFinite = total.nonFinite;
    uint64_t finite = count - total.nonFinite;
    if (finite > 0) {
        stats.min = total.min;
        stats.max = total.max;
        stats.mean = total.sum / double(finite);
    }
    return stats;
}

} // namespace

VolumeStats sampleStats(ScalarType type, const std::byte* samples, uint64_t count)
{
    switch (type) {
    case ScalarType::UInt8: return statsOf<uint8_t>(samples, count);
    case ScalarType::UInt16: return statsOf<uint16_t>(samples, count);
    case ScalarType::Int16: return statsOf<int16_t>(samples, count);
    case ScalarType::Float32: return statsOf<float>(samples, count);
    }
    return {};
}

void computeStats(Volume& volume)
{
    uint64_t count = std::min<uint64_t>(volume.sampleCount(), volume.data.size() / scalarSize(volume.type));
    volume.stats = sampleStats(volume.type, volume.data.data(), count);
}

void computeStats(Volume& volume, const std::byte* samples)
{
    volume.stats = sampleStats(volume.type, samples, volume.sampleCount());
}

Affine worldMatrix(const Volume& volume)
{
    if (volume.indexToWorld)
        return *volume.indexToWorld;
    Affine m{};
    for (int axis = 0; axis < 3; ++axis) {
        m[axis][axis] = volume.spacing[axis];
        m[axis][3] = volume.origin[axis];
    }
    m[3][3] = 1.0;
    return m;
}

} // namespace isoscope
