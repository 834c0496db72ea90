// MetaImage files as ITK writes them read back sample for sample.
#include "volume/readers.h"
#include "volume_test_support.h"

using namespace isoscope;
using namespace volumetest;

namespace {

std::string metaTypeName(ScalarType type)
{
    switch (type) {
    case ScalarType::UInt8: return "MET_UCHAR";
    case ScalarType::UInt16: return "MET_USHORT";
    case ScalarType::Int16: return "MET_SHORT";
    case ScalarType::Float32: return "MET_FLOAT";
    }
    return "";
}

struct MetaLayout {
    bool bigEndian = false;
    bool compressed = false;
    bool local = false; // .mha with the data after the header
};

fs::path writeTestMetaImage(const Volume& volume, const std::string& stem, MetaLayout layout)
{
    std::vector<std::byte> payload = encodeSamples(volume, layout.bigEndian);
    if (layout.compressed)
        payload = compress(payload, false);
    std::string header = "ObjectType = Image\nNDims = 3\nBinaryData = True\n";
    header += std::string("BinaryDataByteOrderMSB = ") + (layout.bigEndian ? "True" : "False") + "\n";
    header += std::string("CompressedData = ") + (layout.compressed ? "True" : "False") + "\n";
    if (layout.compressed)
        header += "CompressedDataSize = " + std::to_string(payload.size()) + "\n";
    header += "TransformMatrix = 1 0 0 0 1 0 0 0 1\nOffset = " + numbers(volume.origin) + "\n";
    header += "CenterOfRotation = 0 0 0\nAnatomicalOrientation = RAI\n";
    header += "ElementSpacing = " + numbers(volume.spacing) + "\nDimSize = " + sizes(volume.dims) + "\n";
    header += "ElementType = " + metaTypeName(volume.type) + "\n";
    if (layout.local)
        return writeTestFile(stem + ".mha", header + "ElementDataFile = LOCAL\n", payload);
    return writeDetached(stem + ".mhd", header, "ElementDataFile = ", stem + (layout.compressed ? ".zraw" : ".raw"),
                         payload);
}

} // namespace

TEST_CASE("MetaImage round trips every type, .mhd and .mha, plain and zlib, either byte order", "[volume]")
{
    for (ScalarType type : allTypes)
        for (bool bigEndian : {false, true})
            for (bool compressed : {false, true})
                for (bool local : {false, true}) {
                    std::string stem = "meta_" + std::string(scalarName(type)) + (bigEndian ? "_msb" : "_lsb") +
                                       (compressed ? "_zlib" : "_plain") + (local ? "_local" : "_detached");
                    INFO(stem);
                    Volume expected = makeTestVolume(type);
                    requireSameVolume(readVolumeFile(writeTestMetaImage(expected, stem, {bigEndian, compressed, local})),
                                      expected);
                }
}

TEST_CASE("MetaImage accepts ElementSize, Origin, ElementByteOrderMSB and no CompressedDataSize", "[volume]")
{
    Volume expected = makeTestVolume(ScalarType::UInt16);
    fs::path path = tmpPath("meta_alternatives.mha");
    writeFile(path,
              "NDims = 3\nDimSize = " + sizes(expected.dims) + "\nElementType = MET_USHORT\nElementSize = " +
                  numbers(expected.spacing) + "\nOrigin = " + numbers(expected.origin) +
                  "\nElementByteOrderMSB = True\nCompressedData = True\nElementDataFile = LOCAL\n",
              compress(encodeSamples(expected, true), false));
    requireSameVolume(readVolumeFile(path), expected);
}

TEST_CASE("MetaImage HeaderSize skips bytes at the start of the data file", "[volume]")
{
    Volume expected = makeTestVolume(ScalarType::Int16);
    fs::path data = tmpPath("meta_headersize.raw");
    std::vector<std::byte> payload = encodeSamples(expected, false);
    writeFile(data, "twelve bytes", payload);
    fs::path path = tmpPath("meta_headersize.mhd");
    std::string header = "NDims = 3\nDimSize = " + sizes(expected.dims) + "\nElementType = MET_SHORT\nElementSpacing = " +
                         numbers(expected.spacing) + "\nOffset = " + numbers(expected.origin) + "\n";
    writeFile(path, header + "HeaderSize = 12\nElementDataFile = meta_headersize.raw\n");
    requireSameVolume(readVolumeFile(path), expected);
    writeFile(path, header + "HeaderSize = -1\nElementDataFile = meta_headersize.raw\n"); // -1: data at the end
    requireSameVolume(readVolumeFile(path), expected);
}
