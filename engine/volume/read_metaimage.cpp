// MetaImage (ITK's MetaIO, https://itk.org/Wiki/ITK/MetaIO/Documentation):
// .mhd with a separate data file, .mha with the data after the header.
#include <map>

#include "core/error.h"
#include "volume/read_support.h"
#include "volume/readers.h"

namespace isoscope {

using namespace readsupport;
namespace fs = std::filesystem;

namespace {

std::optional<ScalarType> parseMetaType(std::string_view name)
{
    if (name == "MET_UCHAR")
        return ScalarType::UInt8;
    if (name == "MET_USHORT")
        return ScalarType::UInt16;
    if (name == "MET_SHORT")
        return ScalarType::Int16;
    if (name == "MET_FLOAT")
        return ScalarType::Float32;
    return std::nullopt;
}

bool parseBool(const fs::path& path, std::string_view field, std::string_view text)
{
    std::string value = lowercase(text);
    if (value == "true" || value == "1")
        return true;
    if (value == "false" || value == "0")
        return false;
    failFile(path, std::string(field) + ": '" + std::string(text) + "' is not True or False");
}

struct MetaHeader {
    std::map<std::string, std::string, std::less<>> fields; // lowercase name → value
    uint64_t headerBytes = 0;                               // where LOCAL data start
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
        std::string name = lowercase(trim(line.substr(0, equals)));
        header.fields[name] = std::string(trim(line.substr(equals + 1)));
        if (name == "elementdatafile") {
            header.headerBytes = cursor.offset;
            return header;
        }
    }
    failFile(path, "the header has no ElementDataFile line (it names the data, or LOCAL for data after the header)");
}

std::optional<std::string_view> optionalField(const MetaHeader& header, std::string_view name)
{
    auto found = header.fields.find(name);
    return found == header.fields.end() ? std::nullopt : std::optional<std::string_view>(found->second);
}

std::string_view requireField(const fs::path& path, const MetaHeader& header, std::string_view name,
                              std::string_view spelling)
{
    auto value = optionalField(header, name);
    if (!value)
        failFile(path, "the header has no " + std::string(spelling) + " line, which isoscope needs");
    return *value;
}

// The first of several equivalent fields that is present.
std::optional<std::string_view> firstField(const MetaHeader& header, std::initializer_list<std::string_view> names)
{
    for (std::string_view name : names)
        if (auto value = optionalField(header, name))
            return value;
    return std::nullopt;
}

} // namespace

Volume readMetaImage(const fs::path& path)
{
    MetaHeader header = parseHeader(path);

    int64_t dimensions = parseInteger(path, "NDims", requireField(path, header, "ndims", "NDims"));
    if (dimensions != 3)
        failFile(path, "NDims is " + std::to_string(dimensions) + "; isoscope reads 3D scalar volumes only");
    if (auto channels = optionalField(header, "elementnumberofchannels"))
        if (parseInteger(path, "ElementNumberOfChannels", *channels) != 1)
            failFile(path, "has " + printable(*channels) + " channels per sample; isoscope reads scalar volumes");

    Volume volume;
    std::string_view typeText = requireField(path, header, "elementtype", "ElementType");
    std::optional<ScalarType> type = parseMetaType(typeText);
    if (!type)
        failFile(path, "ElementType '" + printable(typeText) +
                           "' is not supported; isoscope reads MET_UCHAR, MET_USHORT, MET_SHORT and MET_FLOAT");
    volume.type = *type;
    volume.dims = parseDims(path, "DimSize", splitWords(requireField(path, header, "dimsize", "DimSize")));
    if (auto spacing = firstField(header, {"elementspacing", "elementsize"})) {
        volume.spacing = parseTriple(path, "ElementSpacing", splitWords(*spacing));
        checkSpacing(path, "ElementSpacing", volume.spacing);
    }
    if (auto origin = firstField(header, {"offset", "origin", "position"}))
        volume.origin = parseTriple(path, "Offset", splitWords(*origin));
    uint64_t bytes = checkedByteSize(path, volume.dims, volume.type);

    if (auto binary = optionalField(header, "binarydata"); binary && !parseBool(path, "BinaryData", *binary))
        failFile(path, "holds ASCII data (BinaryData = False); isoscope reads binary MetaImage only");
    bool bigEndian = false;
    if (auto msb = firstField(header, {"binarydatabyteordermsb", "elementbyteordermsb"}))
        bigEndian = parseBool(path, "BinaryDataByteOrderMSB", *msb);
    bool compressed = false;
    if (auto value = optionalField(header, "compresseddata"))
        compressed = parseBool(path, "CompressedData", *value);

    std::string_view dataFile = requireField(path, header, "elementdatafile", "ElementDataFile");
    fs::path dataPath = path;
    uint64_t offset = header.headerBytes;
    if (dataFile != "LOCAL") {
        if (dataFile == "LIST" || dataFile.find(' ') != std::string_view::npos)
            failFile(path, "ElementDataFile '" + printable(dataFile) +
                               "' names several files; isoscope reads one data file per volume");
        dataPath = dataFileBeside(path, dataFile);
        if (!fs::exists(dataPath))
            failFile(path, "its data file '" + dataPath.string() + "' is missing; keep it beside the header");
        offset = 0;
    }
    uint64_t available = fileSize(dataPath);
    if (auto skip = optionalField(header, "headersize")) {
        int64_t headerSize = parseInteger(path, "HeaderSize", *skip);
        if (headerSize == -1 && !compressed) // MetaIO: the data are the file's last bytes
            offset = available >= bytes ? available - bytes : 0;
        else if (headerSize >= 0)
            offset += uint64_t(headerSize);
        else
            failFile(path, "HeaderSize " + std::to_string(headerSize) + " is not supported");
    }
    uint64_t remaining = available - std::min(offset, available);

    if (compressed) {
        uint64_t compressedBytes = remaining;
        if (auto size = optionalField(header, "compresseddatasize")) {
            int64_t declared = parseInteger(path, "CompressedDataSize", *size);
            if (declared <= 0 || uint64_t(declared) > remaining)
                failFile(dataPath, "CompressedDataSize " + std::to_string(declared) + " but only " +
                                       std::to_string(remaining) + " bytes follow; the file is truncated");
            compressedBytes = uint64_t(declared);
        }
        volume.data = inflateExactly(dataPath, readBytes(dataPath, offset, compressedBytes), bytes);
    } else {
        if (remaining != bytes)
            failFile(dataPath, "holds " + std::to_string(remaining) + " bytes of data but the header '" +
                                   path.filename().string() + "' describes " + std::to_string(bytes) +
                                   " (DimSize × element size); " +
                                   (remaining < bytes ? "the file is truncated" : "check DimSize, ElementType and HeaderSize"));
        volume.data = readBytes(dataPath, offset, bytes);
    }
    toHostOrder(volume.data, volume.type, bigEndian);
    return finishVolume(std::move(volume), path);
}

} // namespace isoscope
