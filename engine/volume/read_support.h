#pragma once
// What the volume readers share: errors that name the file, checked sizes,
// bounded reads, header lines, number parsing, inflation and byte order.
// Internal to engine/volume.
#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/progress.h"
#include "volume/volume.h"

namespace isoscope::readsupport {

// Larger volumes are refused before anything is allocated: no device holds
// them, and a corrupt header must not turn into a huge allocation.
constexpr uint64_t maxVolumeBytes = uint64_t(1) << 40;

[[noreturn]] void failFile(const std::filesystem::path& path, const std::string& problem);

// The size in bytes of an existing regular file; fails when it cannot be opened.
uint64_t fileSize(const std::filesystem::path& path);

// count bytes at offset; fails, with the numbers, when the file is shorter.
// Reports "reading '<file name>'" in bytes to progress.
std::vector<std::byte> readBytes(const std::filesystem::path& path, uint64_t offset, uint64_t count,
                                 const Progress& progress = {});

// The first min(file size, maxBytes) bytes as text, for header parsing.
std::string readHeaderText(const std::filesystem::path& path, size_t maxBytes = 1 << 20);

// Walks text line by line; a line excludes its '\n' and a trailing '\r'.
// offset is the byte after the last line returned. Returns false at the end
// of text, and at a last line without '\n' unless lastLineMayBeOpen (so a
// header cut off by readHeaderText's limit is never taken as complete).
struct LineCursor {
    std::string_view text;
    bool lastLineMayBeOpen = false;
    size_t offset = 0;
    bool next(std::string_view& line);
};

std::string_view trim(std::string_view text);
std::vector<std::string_view> splitWords(std::string_view text); // on spaces and tabs

// The sample type a format spells `name`, looked up in that format's table
// of spellings; nullopt for a name not in it.
std::optional<ScalarType> scalarTypeNamed(std::string_view name,
                                          std::initializer_list<std::pair<std::string_view, ScalarType>> spellings);

int64_t parseInteger(const std::filesystem::path& path, std::string_view field, std::string_view word);
double parseNumber(const std::filesystem::path& path, std::string_view field, std::string_view word);

// One size, 1..2^32-1.
uint32_t parseSize(const std::filesystem::path& path, std::string_view field, std::string_view word);
// Three sizes from words (exactly three, each 1..2^32-1), named field in errors.
std::array<uint32_t, 3> parseDims(const std::filesystem::path& path, std::string_view field,
                                  std::span<const std::string_view> words);
// Three numbers (exactly three, finite), named field in errors.
std::array<double, 3> parseTriple(const std::filesystem::path& path, std::string_view field,
                                  std::span<const std::string_view> words);
// Fails unless every spacing is finite and positive.
void checkSpacing(const std::filesystem::path& path, std::string_view field, const std::array<double, 3>& spacing);

// dims product × type size, failing on overflow or above maxVolumeBytes.
uint64_t checkedByteSize(const std::filesystem::path& path, const std::array<uint32_t, 3>& dims, ScalarType type);

// Inflates a zlib or gzip stream (detected from its header; concatenated gzip
// members are joined) into exactly `expected` bytes, failing on corrupt,
// short or long data. The output grows with the data decoded (in chunks),
// so short data fail having allocated little, whatever `expected` says.
// Reports "decompressing '<file name>'" in bytes of output to progress.
std::vector<std::byte> inflateExactly(const std::filesystem::path& path, std::span<const std::byte> compressed,
                                      uint64_t expected, const Progress& progress = {});

// Swaps each sample to host order when the file's order differs.
void toHostOrder(std::span<std::byte> data, ScalarType type, bool fileIsBigEndian);

// A header's "name: value" or "Name = Value" fields, by lowercase name.
using HeaderFields = std::map<std::string, std::string, std::less<>>;

std::optional<std::string_view> optionalField(const HeaderFields& fields, std::string_view name);
// Fails, naming the field as the format spells it, when it is absent.
std::string_view requireField(const std::filesystem::path& path, const HeaderFields& fields, std::string_view name,
                              std::string_view spelling);

// The data file a detached header names (NRRD `data file`, MetaImage
// `ElementDataFile`), relative to the header's folder as both formats
// specify. Fails for a list of files (LIST, or several names) and when the
// file is missing or cannot be looked at.
std::filesystem::path dataFileBeside(const std::filesystem::path& header, std::string_view field, std::string_view name);

// How a format names its fields, for the message when the data do not fit.
struct SizeFieldNames {
    std::string_view sizes; // "sizes", "DimSize"
    std::string_view type;  // "type", "ElementType"
    std::string_view skip;  // "byte skip", "HeaderSize"
};

// `bytes` bytes of uncompressed samples from dataPath: `skip` bytes after
// offset, or, for skip -1 (NRRD `byte skip`, MetaImage `HeaderSize`), the
// file's last `bytes` bytes. Fails, naming the data file and the header,
// unless exactly `bytes` bytes are left for the samples.
// Where readRawSamples would read: the offset of the samples in dataPath,
// after the same checks.
uint64_t rawSamplesOffset(const std::filesystem::path& header, const std::filesystem::path& dataPath, uint64_t offset,
                          int64_t skip, uint64_t bytes, const SizeFieldNames& names);
std::vector<std::byte> readRawSamples(const std::filesystem::path& header, const std::filesystem::path& dataPath,
                                      uint64_t offset, int64_t skip, uint64_t bytes, const SizeFieldNames& names,
                                      const Progress& progress = {});

// Fills source and stats; the last step of every reader.
Volume finishVolume(Volume volume, const std::filesystem::path& path);

} // namespace isoscope::readsupport
