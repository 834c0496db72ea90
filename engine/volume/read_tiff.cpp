// TIFF stacks through libtiff: the pages of one file, or of several files
// taken in order, are the volume's z slices. libtiff decodes strips or tiles
// (any compression it was built with) into host byte order.
#include <cstdarg>
#include <cmath>
#include <cstring>
#include <memory>
#include <string>

#include <tiffio.h>

#include "core/error.h"
#include "core/text.h"
#include "volume/read_support.h"
#include "volume/readers.h"

namespace isoscope {

using namespace readsupport;
namespace fs = std::filesystem;

namespace {

// libtiff's last error for one open file, caught by its per-file handler
// (TIFFOpenExt) instead of going to stderr.
struct TiffMessages {
    std::string lastError;
};

int keepError(TIFF*, void* userData, const char* module, const char* format, va_list arguments)
{
    char text[512];
    std::vsnprintf(text, sizeof(text), format, arguments);
    static_cast<TiffMessages*>(userData)->lastError = std::string(module ? module : "libtiff") + ": " + text;
    return 1; // handled: not passed on to the global handler
}

int ignoreWarning(TIFF*, void*, const char*, const char*, va_list)
{
    return 1; // unknown tags and the like: nothing the reader acts on
}

struct TiffFile {
    std::unique_ptr<TIFF, decltype(&TIFFClose)> tiff{nullptr, TIFFClose};
    std::unique_ptr<TiffMessages> messages = std::make_unique<TiffMessages>();

    std::string why() const { return messages->lastError.empty() ? "" : " (" + messages->lastError + ")"; }
};

TiffFile openTiff(const fs::path& path)
{
    fileSize(path); // exists, and is not a folder
    TiffFile file;
    std::unique_ptr<TIFFOpenOptions, decltype(&TIFFOpenOptionsFree)> options(TIFFOpenOptionsAlloc(),
                                                                              TIFFOpenOptionsFree);
    TIFFOpenOptionsSetErrorHandlerExtR(options.get(), keepError, file.messages.get());
    TIFFOpenOptionsSetWarningHandlerExtR(options.get(), ignoreWarning, nullptr);
    file.tiff.reset(TIFFOpenExt(path.c_str(), "r", options.get()));
    if (!file.tiff)
        failFile(path, "libtiff cannot open it as TIFF" + file.why());
    return file;
}

// One page's layout and sample type.
struct PageFormat {
    uint32_t width = 0, height = 0;
    uint16_t bits = 0, sampleFormat = SAMPLEFORMAT_UINT;

    bool operator==(const PageFormat&) const = default;
    std::string describe() const
    {
        const char* kind = sampleFormat == SAMPLEFORMAT_IEEEFP ? "float" : sampleFormat == SAMPLEFORMAT_INT ? "int" : "uint";
        return std::to_string(width) + "x" + std::to_string(height) + " " + kind + std::to_string(bits);
    }
};

// What a page's samples become: the engine's type, and whether that is a conversion.
struct TypePlan {
    ScalarType type;
    bool converted = false;
};

std::optional<TypePlan> planType(const PageFormat& format)
{
    if (format.sampleFormat == SAMPLEFORMAT_UINT && format.bits == 8)
        return TypePlan{ScalarType::UInt8};
    if (format.sampleFormat == SAMPLEFORMAT_UINT && format.bits == 16)
        return TypePlan{ScalarType::UInt16};
    if (format.sampleFormat == SAMPLEFORMAT_INT && format.bits == 16)
        return TypePlan{ScalarType::Int16};
    if (format.sampleFormat == SAMPLEFORMAT_IEEEFP && format.bits == 32)
        return TypePlan{ScalarType::Float32};
    if (format.sampleFormat == SAMPLEFORMAT_INT && format.bits == 8)
        return TypePlan{ScalarType::Int16, true};
    if ((format.sampleFormat != SAMPLEFORMAT_IEEEFP && format.bits == 32) ||
        (format.sampleFormat == SAMPLEFORMAT_IEEEFP && format.bits == 64))
        return TypePlan{ScalarType::Float32, true};
    return std::nullopt;
}

PageFormat pageFormat(const fs::path& path, TIFF* tiff, uint32_t page)
{
    PageFormat format;
    uint16_t samplesPerPixel = 1, planar = PLANARCONFIG_CONTIG;
    if (!TIFFGetField(tiff, TIFFTAG_IMAGEWIDTH, &format.width) || !TIFFGetField(tiff, TIFFTAG_IMAGELENGTH, &format.height))
        failFile(path, "page " + std::to_string(page) + " has no ImageWidth or ImageLength");
    TIFFGetFieldDefaulted(tiff, TIFFTAG_BITSPERSAMPLE, &format.bits);
    TIFFGetFieldDefaulted(tiff, TIFFTAG_SAMPLEFORMAT, &format.sampleFormat);
    TIFFGetFieldDefaulted(tiff, TIFFTAG_SAMPLESPERPIXEL, &samplesPerPixel);
    TIFFGetFieldDefaulted(tiff, TIFFTAG_PLANARCONFIG, &planar);
    if (format.width == 0 || format.height == 0)
        failFile(path, "page " + std::to_string(page) + " is " + std::to_string(format.width) + "x" +
                           std::to_string(format.height) + "; sizes must be positive");
    if (samplesPerPixel != 1)
        failFile(path, "page " + std::to_string(page) + " has " + std::to_string(samplesPerPixel) +
                           " samples per pixel (RGB or similar); isoscope reads one-channel (grayscale) stacks");
    if (!planType(format))
        failFile(path, "page " + std::to_string(page) + " holds " + format.describe() +
                           " samples; isoscope reads 8/16-bit integer and 32/64-bit float TIFF "
                           "(uint8, uint16, int16, float32 as they are; int8, 32-bit integers and float64 converted)");
    return format;
}

// Refuses a page whose stored strips or tiles cannot hold its samples, before
// allocating for them: a header may claim 100000 x 100000 pixels over a few
// bytes. Compressed data are allowed 4096:1 (more than LZW's and deflate's
// best); uncompressed data must be all there.
void checkStoredBytes(const fs::path& path, TIFF* tiff, uint32_t page, const PageFormat& format)
{
    uint64_t* counts = nullptr;
    bool tiled = TIFFIsTiled(tiff);
    uint32_t pieces = tiled ? TIFFNumberOfTiles(tiff) : TIFFNumberOfStrips(tiff);
    if (!TIFFGetField(tiff, tiled ? TIFFTAG_TILEBYTECOUNTS : TIFFTAG_STRIPBYTECOUNTS, &counts) || !counts)
        failFile(path, "page " + std::to_string(page) + " has no " + (tiled ? "TileByteCounts" : "StripByteCounts"));
    uint64_t available = fileSize(path), stored = 0;
    for (uint32_t i = 0; i < pieces; ++i)
        stored += std::min(counts[i], available);
    uint16_t compression = COMPRESSION_NONE;
    TIFFGetFieldDefaulted(tiff, TIFFTAG_COMPRESSION, &compression);
    uint64_t ratio = compression == COMPRESSION_NONE ? 1 : 4096;
    uint64_t needed = uint64_t(format.width) * format.height * (format.bits / 8);
    if (stored > UINT64_MAX / ratio || stored * ratio < needed)
        failFile(path, "page " + std::to_string(page) + " stores " + std::to_string(stored) + " bytes, too few for its " +
                           format.describe() + " samples (" + std::to_string(needed) +
                           " bytes); truncated file or wrong sizes");
}

// The page's raw samples (bits/8 bytes each, host order), row by row.
std::vector<std::byte> readPage(const fs::path& path, const TiffFile& file, uint32_t page, const PageFormat& format)
{
    TIFF* tiff = file.tiff.get();
    size_t sampleBytes = format.bits / 8;
    size_t rowBytes = size_t(format.width) * sampleBytes;
    std::vector<std::byte> pixels(rowBytes * format.height);
    auto failRead = [&](const std::string& what) {
        failFile(path, "page " + std::to_string(page) + ": cannot read " + what + file.why() +
                           " (truncated or corrupt file)");
    };
    if (TIFFIsTiled(tiff)) {
        uint32_t tileWidth = 0, tileHeight = 0;
        TIFFGetField(tiff, TIFFTAG_TILEWIDTH, &tileWidth);
        TIFFGetField(tiff, TIFFTAG_TILELENGTH, &tileHeight);
        tmsize_t tileBytes = TIFFTileSize(tiff);
        if (tileWidth == 0 || tileHeight == 0 || tileBytes < tmsize_t(size_t(tileWidth) * tileHeight * sampleBytes))
            failRead("its tile layout");
        std::vector<std::byte> tile(static_cast<size_t>(tileBytes));
        for (uint32_t y = 0; y < format.height; y += tileHeight)
            for (uint32_t x = 0; x < format.width; x += tileWidth) {
                if (TIFFReadTile(tiff, tile.data(), x, y, 0, 0) < 0)
                    failRead("the tile at " + std::to_string(x) + ", " + std::to_string(y));
                uint32_t rows = std::min(tileHeight, format.height - y), columns = std::min(tileWidth, format.width - x);
                for (uint32_t row = 0; row < rows; ++row)
                    std::memcpy(pixels.data() + (size_t(y) + row) * rowBytes + size_t(x) * sampleBytes,
                                tile.data() + size_t(row) * tileWidth * sampleBytes, columns * sampleBytes);
            }
        return pixels;
    }
    uint32_t rowsPerStrip = format.height;
    TIFFGetFieldDefaulted(tiff, TIFFTAG_ROWSPERSTRIP, &rowsPerStrip);
    rowsPerStrip = std::clamp<uint32_t>(rowsPerStrip, 1, format.height);
    uint32_t strips = TIFFNumberOfStrips(tiff);
    if (uint64_t(strips) * rowsPerStrip < format.height)
        failRead("its strips (" + std::to_string(strips) + " of " + std::to_string(rowsPerStrip) + " rows for " +
                 std::to_string(format.height) + " rows)");
    for (uint32_t strip = 0; uint64_t(strip) * rowsPerStrip < format.height; ++strip) {
        uint32_t rows = std::min(rowsPerStrip, format.height - strip * rowsPerStrip);
        tmsize_t wanted = tmsize_t(size_t(rows) * rowBytes);
        tmsize_t got = TIFFReadEncodedStrip(tiff, strip, pixels.data() + size_t(strip) * rowsPerStrip * rowBytes, wanted);
        if (got != wanted)
            failRead("strip " + std::to_string(strip));
    }
    return pixels;
}

template <typename From, typename To>
void appendConverted(std::vector<std::byte>& out, const std::vector<std::byte>& in)
{
    size_t count = in.size() / sizeof(From);
    size_t start = out.size();
    out.resize(start + count * sizeof(To));
    for (size_t i = 0; i < count; ++i) {
        From value;
        std::memcpy(&value, in.data() + i * sizeof(From), sizeof(From));
        To converted = To(value);
        std::memcpy(out.data() + start + i * sizeof(To), &converted, sizeof(To));
    }
}

void appendSamples(std::vector<std::byte>& out, const std::vector<std::byte>& page, const PageFormat& format)
{
    if (!planType(format)->converted) {
        out.insert(out.end(), page.begin(), page.end());
        return;
    }
    bool isFloat = format.sampleFormat == SAMPLEFORMAT_IEEEFP, isSigned = format.sampleFormat == SAMPLEFORMAT_INT;
    if (format.bits == 8)
        appendConverted<int8_t, int16_t>(out, page);
    else if (isFloat)
        appendConverted<double, float>(out, page);
    else if (isSigned)
        appendConverted<int32_t, float>(out, page);
    else
        appendConverted<uint32_t, float>(out, page);
}

// ImageJ writes "ImageJ=1.x\n...spacing=2.5\nunit=micron\n" in the first
// page's ImageDescription, with X/YResolution in pixels per unit.
std::optional<std::array<double, 3>> imageJSpacing(TIFF* tiff)
{
    char* description = nullptr;
    if (!TIFFGetField(tiff, TIFFTAG_IMAGEDESCRIPTION, &description) || !description ||
        std::strncmp(description, "ImageJ=", 7) != 0)
        return std::nullopt;
    std::array<double, 3> spacing{1.0, 1.0, 1.0};
    float xResolution = 0.0f, yResolution = 0.0f;
    if (TIFFGetField(tiff, TIFFTAG_XRESOLUTION, &xResolution) && xResolution > 0.0f && std::isfinite(xResolution))
        spacing[0] = 1.0 / xResolution;
    if (TIFFGetField(tiff, TIFFTAG_YRESOLUTION, &yResolution) && yResolution > 0.0f && std::isfinite(yResolution))
        spacing[1] = 1.0 / yResolution;
    std::string_view text(description);
    size_t at = text.find("\nspacing=");
    if (at != std::string_view::npos) {
        std::string_view value = text.substr(at + 9, text.find('\n', at + 9) - (at + 9));
        char* end = nullptr;
        std::string copy(value);
        double z = std::strtod(copy.c_str(), &end);
        if (end != copy.c_str() && std::isfinite(z) && z > 0.0)
            spacing[2] = z;
    }
    return spacing;
}

} // namespace

Volume readTiff(const std::vector<fs::path>& files, const RawOptions& options)
{
    if (files.empty())
        fail("no TIFF files to read");
    Volume volume;
    std::optional<PageFormat> first;
    const fs::path* firstPath = &files.front();
    uint64_t pages = 0;
    std::optional<std::array<double, 3>> metadataSpacing;
    // Pages to come, for progress: a multi-page file counts its directories, slice files count one each.
    uint64_t expectedPages = files.size();
    for (const fs::path& path : files) {
        TiffFile file = openTiff(path);
        if (files.size() == 1 && options.progress)
            expectedPages = TIFFNumberOfDirectories(file.tiff.get());
        if (pages == 0 && options.progress)
            options.progress({"reading TIFF stack", 0, expectedPages, "pages", 0});
        file.messages->lastError.clear(); // what libtiff recovered from while opening
        uint32_t page = 0;
        do {
            PageFormat format = pageFormat(path, file.tiff.get(), page);
            if (!first) {
                first = format;
                volume.type = planType(format)->type;
                metadataSpacing = imageJSpacing(file.tiff.get());
            } else if (!(format == *first)) {
                failFile(path, "page " + std::to_string(page) + " is " + format.describe() + " but '" +
                                   firstPath->filename().string() + "' page 0 is " + first->describe() +
                                   "; every slice of a stack must match");
            }
            if (pages + 1 > UINT32_MAX)
                failFile(path, "more than 2^32 - 1 pages");
            // The whole stack is checked against the size limit before each page is decoded.
            checkedByteSize(path, {format.width, format.height, uint32_t(pages + 1)}, volume.type);
            checkStoredBytes(path, file.tiff.get(), page, format);
            appendSamples(volume.data, readPage(path, file, page, format), format);
            ++pages;
            ++page;
            if (options.progress)
                options.progress({"reading TIFF stack", pages, std::max(pages, expectedPages), "pages",
                                  volume.data.size()});
        } while (TIFFReadDirectory(file.tiff.get()));
        if (!file.messages->lastError.empty())
            failFile(path, "cannot read its page list after page " + std::to_string(page - 1) + file.why());
    }
    volume.dims = {first->width, first->height, uint32_t(pages)};
    if (options.spacing)
        volume.spacing = *options.spacing;
    else if (metadataSpacing)
        volume.spacing = *metadataSpacing;
    checkSpacing(files.front(), options.spacing ? "--spacing" : "ImageJ resolution and spacing", volume.spacing);
    if (planType(*first)->converted)
        volume.notes.push_back(first->describe().substr(first->describe().find(' ') + 1) + " samples converted to " +
                               std::string(scalarName(volume.type)));
    if (!options.spacing && !metadataSpacing)
        volume.notes.push_back("TIFF says no spacing: 1 1 1 (give --spacing X Y Z)");
    return finishVolume(std::move(volume), files.size() == 1 ? files.front() : files.front().parent_path());
}

} // namespace isoscope
