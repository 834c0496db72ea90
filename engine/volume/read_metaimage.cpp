// MetaImage (ITK's MetaIO, https://itk.org/Wiki/ITK/MetaIO/Documentation):
// .mhd with a separate data file, .mha with the data after the header.
#include "core/error.h"
#include "core/text.h"
#include "volume/read_support.h"
#include "volume/readers.h"

namespace isoscope {

using namespace readsupport;
namespace fs = std::filesystem;

namespace {

std::optional<ScalarType> parseMetaType(std::string_view name)
{
    return scalarTypeNamed(name, {{"MET_UCHAR", ScalarType::UInt8},
                                  {"MET_USHORT", ScalarType::UInt16},
                                  {"MET_SHORT", ScalarType::Int16},
                                  {"MET_FLOAT", ScalarType::Float32}});
}

bool parseBool(const fs::path& path, std::string_view field, std::string_view text)
{
    std::string value = lowercase(std::string(text));
    if (value == "true" || value == "1")
        return true;
    if (value == "false" || value == "0")
        return false;
    failFile(path, std::string(field) + ": '" + std::string(text) + "' is not True or False");
}

struct MetaHeader {
    HeaderFields fields;      // lowercase name → value
    uint64_t headerBytes = 0; // where LOCAL data start
};

// "Name = Value" lines; ElementDataFile is always the last one (MetaIO).
MetaHeader parseHeader(const fs::path& path)
{
    std::string text = readHeaderText(path);
    LineCursor cursor{text, path.extension() == ".mhd"};
    MetaHeader header;
    std::string_view line;
    while (cursor.next(line)) {
        if (trim(line).empty())
            continue;
        size_t equals = line.find('=');
        if (equals == std::string_view::npos)
            failFile(path, "cannot read the header line '" + printable(line) +
                               "' (expected 'Name = Value'); is this a MetaImage file?");
        std::string name = lowercase(std::string(trim(line.substr(0, equals))));
        header.fields[name] = std::string(trim(line.substr(equals + 1)));
        if (name == "elementdatafile") {
            header.headerBytes = cursor.offset;
            return header;
        }
    }
    failFile(path, "the header has no ElementDataFile line (it names the data, or LOCAL for data after the header)");
}

// The first of several equivalent fields that is present.
std::optional<std::string_view> firstField(const MetaHeader& header, std::initializer_list<std::string_view> names)
{
    for (std::string_view name : names)
        if (auto value = optionalField(header.fields, name))
            return value;
    return std::nullopt;
}

// The grid and sample type the header describes.
Volume describeGrid(const fs::path& path, const MetaHeader& header)
{
    const HeaderFields& fields = header.fields;
    int64_t dimensions = parseInteger(path, "NDims", requireField(path, fields, "ndims", "NDims"));
    if (dimensions != 3)
        failFile(path, "NDims is " + std::to_string(dimensions) + "; isoscope reads 3D scalar volumes only");
    if (auto channels = optionalField(fields, "elementnumberofchannels"))
        if (parseInteger(path, "ElementNumberOfChannels", *channels) != 1)
            failFile(path, "has " + printable(*channels) + " channels per sample; isoscope reads scalar volumes");

    Volume volume;
    std::string_view typeText = requireField(path, fields, "elementtype", "ElementType");
    std::optional<ScalarType> type = parseMetaType(typeText);
    if (!type)
        failFile(path, "ElementType '" + printable(typeText) +
                           "' is not supported; isoscope reads MET_UCHAR, MET_USHORT, MET_SHORT and MET_FLOAT");
    volume.type = *type;
    volume.dims = parseDims(path, "DimSize", splitWords(requireField(path, fields, "dimsize", "DimSize")));
    if (auto spacing = firstField(header, {"elementspacing", "elementsize"})) {
        volume.spacing = parseTriple(path, "ElementSpacing", splitWords(*spacing));
        checkSpacing(path, "ElementSpacing", volume.spacing);
    }
    if (auto origin = firstField(header, {"offset", "origin", "position"}))
        volume.origin = parseTriple(path, "Offset", splitWords(*origin));
    return volume;
}

// Where and how the samples are stored.
struct MetaEncoding {
    bool compressed = false;
    bool bigEndian = false;
    fs::path dataPath;
    uint64_t offset = 0;    // where LOCAL data start, or 0 in a data file of its own
    int64_t headerSize = 0; // bytes skipped after offset; -1: the data are the file's last bytes
};

MetaEncoding describeEncoding(const fs::path& path, const MetaHeader& header)
{
    const HeaderFields& fields = header.fields;
    if (auto binary = optionalField(fields, "binarydata"); binary && !parseBool(path, "BinaryData", *binary))
        failFile(path, "holds ASCII data (BinaryData = False); isoscope reads binary MetaImage only");
    MetaEncoding encoding;
    if (auto msb = firstField(header, {"binarydatabyteordermsb", "elementbyteordermsb"}))
        encoding.bigEndian = parseBool(path, "BinaryDataByteOrderMSB", *msb);
    if (auto value = optionalField(fields, "compresseddata"))
        encoding.compressed = parseBool(path, "CompressedData", *value);

    std::string_view dataFile = requireField(path, fields, "elementdatafile", "ElementDataFile");
    encoding.dataPath = path;
    encoding.offset = header.headerBytes;
    if (dataFile != "LOCAL") {
        encoding.dataPath = dataFileBeside(path, "ElementDataFile", dataFile);
        encoding.offset = 0;
    }
    if (auto skip = optionalField(fields, "headersize"))
        encoding.headerSize = parseInteger(path, "HeaderSize", *skip);
    if (encoding.headerSize < -1 || (encoding.headerSize == -1 && encoding.compressed))
        failFile(path, "HeaderSize " + std::to_string(encoding.headerSize) +
                           " is not supported (-1 only with uncompressed data)");
    return encoding;
}

std::vector<std::byte> readSamples(const fs::path& path, const MetaHeader& header, const MetaEncoding& encoding,
                                   uint64_t bytes, const Progress& progress)
{
    if (!encoding.compressed)
        return readRawSamples(path, encoding.dataPath, encoding.offset, encoding.headerSize, bytes,
                              {"DimSize", "ElementType", "HeaderSize"}, progress);
    uint64_t available = fileSize(encoding.dataPath);
    uint64_t offset = encoding.offset + uint64_t(encoding.headerSize);
    uint64_t remaining = available - std::min(offset, available);
    uint64_t compressedBytes = remaining;
    if (auto size = optionalField(header.fields, "compresseddatasize")) {
        int64_t declared = parseInteger(path, "CompressedDataSize", *size);
        if (declared <= 0 || uint64_t(declared) > remaining)
            failFile(encoding.dataPath, "CompressedDataSize " + std::to_string(declared) + " but only " +
                                            std::to_string(remaining) + " bytes follow; the file is truncated");
        compressedBytes = uint64_t(declared);
    }
    return inflateExactly(encoding.dataPath, readBytes(encoding.dataPath, offset, compressedBytes, progress), bytes,
                          progress);
}

} // namespace

Volume readMetaImage(const fs::path& path, const Progress& progress)
{
    MetaHeader header = parseHeader(path);
    Volume volume = describeGrid(path, header);
    uint64_t bytes = checkedByteSize(path, volume.dims, volume.type);
    MetaEncoding encoding = describeEncoding(path, header);
    volume.data = readSamples(path, header, encoding, bytes, progress);
    toHostOrder(volume.data, volume.type, encoding.bigEndian);
    return finishVolume(std::move(volume), path);
}

} // namespace isoscope
