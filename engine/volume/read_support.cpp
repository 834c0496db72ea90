#include "volume/read_support.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <fstream>
#include <system_error>

#include <zlib.h>

#include "core/error.h"
#include "core/host_memory.h"
#include "core/text.h"

namespace isoscope::readsupport {

namespace fs = std::filesystem;

void failFile(const fs::path& path, const std::string& problem)
{
    fail("'" + path.string() + "': " + problem);
}

uint64_t fileSize(const fs::path& path)
{
    std::error_code error;
    fs::file_status status = fs::status(path, error);
    if (error && status.type() != fs::file_type::not_found)
        failFile(path, "cannot look at the file: " + error.message());
    if (!fs::exists(status))
        failFile(path, "no such file");
    if (fs::is_directory(status))
        failFile(path, "is a folder, not a volume file");
    uintmax_t size = fs::file_size(path, error);
    if (error)
        failFile(path, "cannot read its size: " + error.message());
    return uint64_t(size);
}

std::vector<std::byte> readBytes(const fs::path& path, uint64_t offset, uint64_t count, const Progress& progress)
{
    uint64_t size = fileSize(path);
    if (offset > size || count > size - offset)
        failFile(path, "truncated: needs " + std::to_string(count) + " bytes of data at offset " +
                           std::to_string(offset) + " but the file has " + std::to_string(size) +
                           " bytes; check the sizes and type in the header, or re-copy the file");
    // After the file was found to hold them: a header that does not match
    // its data is reported as such, on any machine.
    checkHostMemory(count, "'" + path.string() + "': the volume's data");
    std::ifstream file(path, std::ios::binary);
    if (!file)
        failFile(path, "cannot open for reading");
    std::vector<std::byte> bytes(static_cast<size_t>(count));
    file.seekg(std::streamoff(offset));
    std::string what = "reading '" + path.filename().string() + "'";
    reportBytes(progress, what, 0, count);
    for (uint64_t done = 0; done < count;) {
        uint64_t step = std::min(count - done, kProgressStepBytes);
        file.read(reinterpret_cast<char*>(bytes.data() + done), std::streamsize(step));
        if (uint64_t(file.gcount()) != step)
            failFile(path, "read failed after " + std::to_string(done + uint64_t(file.gcount())) + " of " +
                               std::to_string(count) + " bytes");
        done += step;
        reportBytes(progress, what, done, count);
    }
    return bytes;
}

std::string readHeaderText(const fs::path& path, size_t maxBytes)
{
    uint64_t size = fileSize(path);
    std::ifstream file(path, std::ios::binary);
    if (!file)
        failFile(path, "cannot open for reading");
    std::string text(size_t(std::min<uint64_t>(size, maxBytes)), '\0');
    file.read(text.data(), std::streamsize(text.size()));
    text.resize(size_t(file.gcount()));
    return text;
}

bool LineCursor::next(std::string_view& line)
{
    size_t end = text.find('\n', offset);
    if (end == std::string_view::npos) {
        if (!lastLineMayBeOpen || offset >= text.size())
            return false;
        end = text.size();
    }
    line = text.substr(offset, end - offset);
    if (!line.empty() && line.back() == '\r')
        line.remove_suffix(1);
    offset = std::min(end + 1, text.size());
    return true;
}

std::string_view trim(std::string_view text)
{
    size_t first = text.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos)
        return {};
    size_t last = text.find_last_not_of(" \t\r\n");
    return text.substr(first, last - first + 1);
}

std::vector<std::string_view> splitWords(std::string_view text)
{
    std::vector<std::string_view> words;
    size_t position = 0;
    while (true) {
        size_t first = text.find_first_not_of(" \t\r\n", position);
        if (first == std::string_view::npos)
            break;
        size_t last = text.find_first_of(" \t\r\n", first);
        if (last == std::string_view::npos)
            last = text.size();
        words.push_back(text.substr(first, last - first));
        position = last;
    }
    return words;
}

std::optional<ScalarType> scalarTypeNamed(std::string_view name,
                                          std::initializer_list<std::pair<std::string_view, ScalarType>> spellings)
{
    for (const auto& [spelling, type] : spellings)
        if (name == spelling)
            return type;
    return std::nullopt;
}

namespace {

// from_chars over the whole word, which may start with '+' (from_chars
// refuses it; headers write it); trailing characters are an error too.
template <typename Number>
std::errc parseWholeWord(std::string_view word, Number& value)
{
    if (!word.empty() && word.front() == '+')
        word.remove_prefix(1);
    auto [end, error] = std::from_chars(word.data(), word.data() + word.size(), value);
    if (error == std::errc() && end != word.data() + word.size())
        return std::errc::invalid_argument;
    return error;
}

} // namespace

int64_t parseInteger(const fs::path& path, std::string_view field, std::string_view word)
{
    int64_t value = 0;
    std::errc error = parseWholeWord(word, value);
    if (error == std::errc::result_out_of_range)
        failFile(path, std::string(field) + ": '" + printable(word) + "' is too large");
    if (error != std::errc())
        failFile(path, std::string(field) + ": '" + printable(word) + "' is not an integer");
    return value;
}

double parseNumber(const fs::path& path, std::string_view field, std::string_view word)
{
    double value = 0.0;
    if (parseWholeWord(word, value) != std::errc())
        failFile(path, std::string(field) + ": '" + printable(word) + "' is not a number");
    return value;
}

std::array<uint32_t, 3> parseDims(const fs::path& path, std::string_view field, std::span<const std::string_view> words)
{
    if (words.size() != 3)
        failFile(path, std::string(field) + " has " + std::to_string(words.size()) +
                           " values; isoscope reads 3D volumes only (three sizes, x y z)");
    return {parseSize(path, field, words[0]), parseSize(path, field, words[1]), parseSize(path, field, words[2])};
}

uint32_t parseSize(const fs::path& path, std::string_view field, std::string_view word)
{
    int64_t size = parseInteger(path, field, word);
    if (size <= 0)
        failFile(path, std::string(field) + ": size " + std::to_string(size) + " must be positive");
    if (size > int64_t(UINT32_MAX))
        failFile(path, std::string(field) + ": size " + std::to_string(size) + " is too large");
    return uint32_t(size);
}

std::array<double, 3> parseTriple(const fs::path& path, std::string_view field, std::span<const std::string_view> words)
{
    if (words.size() != 3)
        failFile(path, std::string(field) + " has " + std::to_string(words.size()) + " values, expected 3 (x y z)");
    std::array<double, 3> values{};
    for (int axis = 0; axis < 3; ++axis) {
        values[axis] = parseNumber(path, field, words[axis]);
        if (!std::isfinite(values[axis]))
            failFile(path, std::string(field) + ": '" + printable(words[axis]) + "' is not finite");
    }
    return values;
}

void checkSpacing(const fs::path& path, std::string_view field, const std::array<double, 3>& spacing)
{
    for (double value : spacing)
        if (!(std::isfinite(value) && value > 0.0))
            failFile(path, std::string(field) + ": spacing " + std::to_string(value) + " must be positive");
}

uint64_t checkedByteSize(const fs::path& path, const std::array<uint32_t, 3>& dims, ScalarType type)
{
    // Three sizes below 2^32 and a size of 4 fit in 128 bits.
    unsigned __int128 bytes = (unsigned __int128)dims[0] * dims[1] * dims[2] * scalarSize(type);
    if (bytes == 0)
        failFile(path, "the volume has no samples");
    if (bytes > maxVolumeBytes)
        failFile(path, "sizes " + std::to_string(dims[0]) + "x" + std::to_string(dims[1]) + "x" +
                           std::to_string(dims[2]) + " " + std::string(scalarName(type)) +
                           " need more than 1 TiB; isoscope refuses volumes this large (a corrupt header?)");
    return uint64_t(bytes);
}

std::vector<std::byte> inflateExactly(const fs::path& path, std::span<const std::byte> compressed, uint64_t expected,
                                      const Progress& progress)
{
    // Deflate cannot expand by more than 1032:1, so a header that claims more
    // is wrong; refusing here avoids allocating for it.
    if (expected / 1032 > compressed.size())
        failFile(path, std::to_string(compressed.size()) + " bytes of compressed data cannot hold the " +
                           std::to_string(expected) + " bytes the header describes (truncated data or wrong sizes)");
    checkHostMemory(expected, "'" + path.string() + "': the volume's decompressed data");

    // Ended on every way out: a failure below, a std::bad_alloc while the
    // output grows, or an exception from progress.
    struct Inflater {
        z_stream stream{};
        bool started = false;
        ~Inflater()
        {
            if (started)
                inflateEnd(&stream);
        }
    } inflater;
    z_stream& stream = inflater.stream;
    inflater.started = inflateInit2(&stream, 15 + 32) == Z_OK; // +32: detect zlib or gzip header
    if (!inflater.started)
        failFile(path, "zlib could not start");
    // Grown as the data arrive, never sized from the header alone: 4 MB that
    // claim a 4 GiB volume fail when their data end, having allocated about
    // what they held rather than what they claimed.
    std::vector<std::byte> output;
    uint64_t inputDone = 0, outputDone = 0;
    int status = Z_OK;
    constexpr uint64_t chunk = uint64_t(1) << 30; // avail_in is 32-bit
    std::string what = "decompressing '" + path.filename().string() + "'";
    reportBytes(progress, what, 0, expected);
    while (true) {
        if (stream.avail_in == 0 && inputDone < compressed.size()) {
            uint64_t take = std::min<uint64_t>(chunk, compressed.size() - inputDone);
            stream.next_in = reinterpret_cast<Bytef*>(const_cast<std::byte*>(compressed.data() + inputDone));
            stream.avail_in = uInt(take);
            inputDone += take;
        }
        // One spare byte beyond `expected` reveals data that is too long.
        std::byte spare{};
        bool full = outputDone == expected;
        if (!full && outputDone == output.size())
            output.resize(size_t(std::min<uint64_t>(expected, std::max<uint64_t>(2 * output.size(), uint64_t(1) << 22))));
        // Output in steps, each reported; also within zlib's 32-bit avail_out.
        uint64_t room = full ? 1 : std::min<uint64_t>(kProgressStepBytes, output.size() - outputDone);
        stream.next_out = reinterpret_cast<Bytef*>(full ? &spare : output.data() + outputDone);
        stream.avail_out = uInt(room);
        status = inflate(&stream, Z_NO_FLUSH);
        uint64_t produced = room - stream.avail_out;
        if (full && produced > 0)
            failFile(path, "the compressed data hold more than the " + std::to_string(expected) +
                               " bytes the header describes; check the sizes and type");
        outputDone += produced;
        if (produced > 0 && outputDone < expected)
            reportBytes(progress, what, outputDone, expected);
        if (status == Z_STREAM_END) {
            bool moreInput = stream.avail_in > 0 || inputDone < compressed.size();
            if (outputDone == expected || !moreInput)
                break;
            inflateReset(&stream); // the next member of a concatenated gzip file
            continue;
        }
        // zlib says Z_BUF_ERROR only when no progress is possible with input
        // and output room both given: here, the input ended before the stream.
        if (status == Z_BUF_ERROR)
            break;
        if (status != Z_OK) {
            std::string message = stream.msg ? stream.msg : "error " + std::to_string(status);
            failFile(path, "corrupt compressed data (zlib: " + message + ")");
        }
    }
    if (outputDone != expected)
        failFile(path, "compressed data end after " + std::to_string(outputDone) + " of the " +
                           std::to_string(expected) + " bytes the header describes (truncated file or wrong sizes)");
    reportBytes(progress, what, expected, expected); // only now: the spare byte has shown the data are not too long
    return output;
}

void toHostOrder(std::span<std::byte> data, ScalarType type, bool fileIsBigEndian)
{
    size_t size = scalarSize(type);
    if (size == 1 || fileIsBigEndian == (std::endian::native == std::endian::big))
        return;
    for (size_t i = 0; i + size <= data.size(); i += size)
        std::reverse(data.begin() + i, data.begin() + i + size);
}

std::optional<std::string_view> optionalField(const HeaderFields& fields, std::string_view name)
{
    auto found = fields.find(name);
    return found == fields.end() ? std::nullopt : std::optional<std::string_view>(found->second);
}

std::string_view requireField(const fs::path& path, const HeaderFields& fields, std::string_view name,
                              std::string_view spelling)
{
    auto value = optionalField(fields, name);
    if (!value)
        failFile(path, "the header has no " + std::string(spelling) + " field, which isoscope needs");
    return *value;
}

fs::path dataFileBeside(const fs::path& header, std::string_view field, std::string_view name)
{
    if (name == "LIST" || name.find(' ') != std::string_view::npos)
        failFile(header, std::string(field) + " '" + printable(name) +
                             "' names several files; isoscope reads one data file per volume");
    fs::path file(name);
    fs::path path = file.is_absolute() ? file : header.parent_path() / file;
    std::error_code error;
    bool exists = fs::exists(path, error); // the error_code form: a too-long name must not throw
    if (error)
        failFile(header, "cannot look at its data file '" + printable(path.string()) + "': " + error.message());
    if (!exists)
        failFile(header, "its data file '" + path.string() + "' is missing; keep it beside the header");
    return path;
}

uint64_t rawSamplesOffset(const fs::path& header, const fs::path& dataPath, uint64_t offset, int64_t skip,
                          uint64_t bytes, const SizeFieldNames& names)
{
    uint64_t available = fileSize(dataPath);
    if (skip == -1) // the data are the file's last bytes
        offset = available >= bytes ? available - bytes : 0;
    else if (skip >= 0)
        offset += uint64_t(skip);
    else
        failFile(header, std::string(names.skip) + " " + std::to_string(skip) + " is not supported");
    uint64_t remaining = available - std::min(offset, available);
    if (remaining != bytes)
        failFile(dataPath, "holds " + std::to_string(remaining) + " bytes of data but the header '" +
                               header.filename().string() + "' describes " + std::to_string(bytes) + " (" +
                               std::string(names.sizes) + " × " + std::string(names.type) + " size); " +
                               (remaining < bytes ? "the file is truncated"
                                                  : "check " + std::string(names.sizes) + ", " +
                                                        std::string(names.type) + " and " + std::string(names.skip)));
    return offset;
}

std::vector<std::byte> readRawSamples(const fs::path& header, const fs::path& dataPath, uint64_t offset, int64_t skip,
                                      uint64_t bytes, const SizeFieldNames& names, const Progress& progress)
{
    return readBytes(dataPath, rawSamplesOffset(header, dataPath, offset, skip, bytes, names), bytes, progress);
}

Volume finishVolume(Volume volume, const fs::path& path)
{
    volume.source = path.string();
    computeStats(volume);
    return volume;
}

} // namespace isoscope::readsupport
