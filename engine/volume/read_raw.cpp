// Raw volumes: bare samples, with sizes and type from the caller or the name.
#include <algorithm>

#include "core/error.h"
#include "core/text.h"
#include "volume/read_support.h"
#include "volume/readers.h"

namespace isoscope {

using namespace readsupport;
namespace fs = std::filesystem;

namespace {

struct NamedLayout {
    std::array<uint32_t, 3> dims;
    ScalarType type;
};

// `engine_256x256x128_uint8.raw`: the convention of the Open SciVis Datasets
// and of ../shared/datasets. The stem's '_'-separated words are searched for
// a "XxYxZ" word followed by a type word.
std::optional<NamedLayout> layoutFromName(const fs::path& path)
{
    std::string stem = path.stem().string();
    std::vector<std::string_view> words;
    for (size_t start = 0; start <= stem.size();) {
        size_t end = std::min(stem.find('_', start), stem.size());
        words.push_back(std::string_view(stem).substr(start, end - start));
        start = end + 1;
    }
    for (size_t w = 0; w + 1 < words.size(); ++w) {
        std::optional<ScalarType> type = parseScalarName(lowercase(std::string(words[w + 1])));
        std::string_view sizes = words[w];
        if (!type || std::count(sizes.begin(), sizes.end(), 'x') != 2 ||
            sizes.find_first_not_of("0123456789x") != std::string_view::npos)
            continue;
        size_t first = sizes.find('x'), second = sizes.find('x', first + 1);
        NamedLayout layout{{}, *type};
        layout.dims[0] = parseSize(path, "sizes in the name", sizes.substr(0, first));
        layout.dims[1] = parseSize(path, "sizes in the name", sizes.substr(first + 1, second - first - 1));
        layout.dims[2] = parseSize(path, "sizes in the name", sizes.substr(second + 1));
        return layout;
    }
    return std::nullopt;
}

} // namespace

InPlaceLayout describeRaw(const fs::path& path, const RawOptions& options)
{
    uint64_t size = fileSize(path);
    std::optional<NamedLayout> named = layoutFromName(path);
    if (!(options.dims || named) || !(options.type || named))
        failFile(path, "a raw file does not say its sizes and type; give them (e.g. --dims 256 256 128 "
                       "--type uint8) or name the file like name_256x256x128_uint8.raw");

    Volume volume;
    volume.dims = options.dims ? *options.dims : named->dims;
    volume.type = options.type ? *options.type : named->type;
    if (options.spacing) {
        volume.spacing = *options.spacing;
        checkSpacing(path, "spacing", volume.spacing);
    }
    for (uint32_t dim : volume.dims)
        if (dim == 0)
            failFile(path, "sizes must be positive");
    uint64_t bytes = checkedByteSize(path, volume.dims, volume.type);

    std::string layout = std::to_string(volume.dims[0]) + "x" + std::to_string(volume.dims[1]) + "x" +
                         std::to_string(volume.dims[2]) + " " + std::string(scalarName(volume.type));
    if (options.headerBytes > size || size - options.headerBytes != bytes)
        failFile(path, "has " + std::to_string(size) + " bytes but " + layout + " after a header of " +
                           std::to_string(options.headerBytes) + " bytes needs exactly " +
                           std::to_string(options.headerBytes + bytes) + "; check the sizes, type and header size");

    volume.source = path.string();
    return InPlaceLayout{std::move(volume), path, options.headerBytes, options.bigEndian};
}

Volume readRaw(const fs::path& path, const RawOptions& options)
{
    InPlaceLayout layout = describeRaw(path, options);
    Volume volume = std::move(layout.grid);
    volume.data = readBytes(path, layout.offset, volume.byteSize(), options.progress);
    toHostOrder(volume.data, volume.type, layout.bigEndian);
    return finishVolume(std::move(volume), path);
}

} // namespace isoscope
