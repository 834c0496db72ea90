#include "volume/write_nrrd.h"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <functional>
#include <system_error>
#include <vector>

#include "core/error.h"
#include "core/memory.h"
#include "volume/volume_source.h"

namespace isoscope {

namespace fs = std::filesystem;

namespace {

std::string_view nrrdTypeName(ScalarType type)
{
    // The short teem spellings, which every NRRD reader (VTK's included) knows.
    switch (type) {
    case ScalarType::UInt8: return "uchar";
    case ScalarType::UInt16: return "ushort";
    case ScalarType::Int16: return "short";
    case ScalarType::Float32: return "float";
    }
    return "unknown";
}

// 17 significant digits: enough for any double to read back identical.
std::string exact(double value)
{
    char text[32];
    std::snprintf(text, sizeof(text), "%.17g", value);
    return text;
}

// One line of free text, for the comment that records where the data came from.
std::string oneLine(std::string text)
{
    for (char& c : text)
        if (c == '\n' || c == '\r')
            c = ' ';
    return text;
}

std::string header(const Volume& volume, const std::string& dataFile)
{
    const auto& d = volume.dims;
    // The whole index-to-world map: diagonal for axis-aligned volumes, the
    // file's rotation and flips otherwise (NIfTI, DICOM), so none is lost.
    Affine m = worldMatrix(volume);
    auto column = [&](int c) { return "(" + exact(m[0][c]) + "," + exact(m[1][c]) + "," + exact(m[2][c]) + ")"; };
    // Vectors without spaces inside: VTK's reader splits the field on spaces.
    std::string text = "NRRD0004\n";
    if (!volume.source.empty())
        text += "# written by isoscope from " + oneLine(volume.source) + "\n";
    text += "type: " + std::string(nrrdTypeName(volume.type)) + "\n";
    text += "dimension: 3\n";
    text += "space dimension: 3\n";
    text += "sizes: " + std::to_string(d[0]) + " " + std::to_string(d[1]) + " " + std::to_string(d[2]) + "\n";
    text += "space directions: " + column(0) + " " + column(1) + " " + column(2) + "\n";
    text += "space origin: " + column(3) + "\n";
    text += "kinds: domain domain domain\n";
    text += std::string("endian: ") + (std::endian::native == std::endian::big ? "big" : "little") + "\n";
    text += "encoding: raw\n";
    if (!dataFile.empty())
        text += "data file: " + dataFile + "\n";
    return text + "\n";
}


// Whether path names the file the volume was read from: writing the .raw of
// an .nhdr must not overwrite its own input (a raw volume named like the
// output). A synthetic spec or a file that does not exist yet is never the same.
bool isSourceFile(const Volume& volume, const fs::path& path)
{
    if (volume.source.empty())
        return false;
    std::error_code error; // the error_code form: a missing file or a too-long name is "not the same"
    return fs::equivalent(path, fs::path(volume.source), error) && !error;
}

} // namespace

std::vector<fs::path> nrrdOutputFiles(const fs::path& path)
{
    if (path.extension() == ".nhdr")
        return {path, fs::path(path).replace_extension(".raw")};
    return {path};
}

namespace {

// The samples, written to `file` by the caller's way of getting them.
using WriteSamples = std::function<void(OutputFile& file)>;

// The NRRD files of `volume` (its sizes, type and index-to-world map; its
// samples, if it holds any, are not read), the samples from `writeSamples`.
void writeNrrdFiles(const Volume& volume, const fs::path& path, const WriteOptions& options,
                    const WriteSamples& writeSamples)
{
    std::string extension = path.extension().string();
    if (extension == ".nrrd") {
        OutputFile file(path, options.ifExists);
        std::string text = header(volume, "");
        file.reportProgress(options.progress, text.size() + volume.byteSize());
        file.write(text);
        writeSamples(file);
        file.commit();
    } else if (extension == ".nhdr") {
        fs::path dataPath = fs::path(path).replace_extension(".raw");
        if (isSourceFile(volume, dataPath))
            fail("cannot write '" + path.string() + "': its data file '" + dataPath.string() +
                 "' is the volume's own source file and would be overwritten; write the .nhdr under another name, "
                 "or as one .nrrd");
        // Both files are checked, and both written, before either appears:
        // a refused or failed header leaves no .raw behind, nor the reverse.
        checkOutputPath(path, options.ifExists);
        OutputFile data(dataPath, options.ifExists);
        data.reportProgress(options.progress, volume.byteSize()); // the header beside it is small
        writeSamples(data);
        OutputFile headerFile(path, options.ifExists);
        headerFile.write(header(volume, dataPath.filename().string()));
        data.commit();
        try {
            headerFile.commit();
        } catch (const Error&) {
            std::error_code ignored;
            fs::remove(dataPath, ignored); // written by this call just now
            throw;
        }
    } else {
        fail("cannot write '" + path.string() + "': NRRD output must end in .nrrd (one file) or .nhdr (header + .raw)");
    }
}

// Planes read and written this many bytes at a time (at least one plane).
constexpr uint64_t kStreamedWriteBytes = uint64_t(256) << 20;

} // namespace

void writeNrrd(const Volume& volume, const fs::path& path, const WriteOptions& options)
{
    if (volume.data.size() != volume.byteSize())
        fail("cannot write '" + path.string() + "': the volume holds " + std::to_string(volume.data.size()) +
             " bytes, its sizes and type call for " + std::to_string(volume.byteSize()));
    writeNrrdFiles(volume, path, options,
                   [&](OutputFile& file) { file.write(volume.data.data(), volume.data.size()); });
}

void writeNrrd(VolumeSource& source, const fs::path& path, const WriteOptions& options)
{
    const Volume& grid = source.grid();
    const uint64_t planeBytes = source.planeBytes();
    const uint32_t planes = grid.dims[2];
    const uint32_t chunk = uint32_t(std::clamp<uint64_t>(kStreamedWriteBytes / planeBytes, 1, planes));
    // Refused before anything is written where the disk cannot hold the samples.
    std::error_code error;
    fs::path folder = fs::absolute(path, error).parent_path();
    fs::space_info space = fs::space(folder, error);
    if (!error && space.available < grid.byteSize())
        fail("cannot write '" + path.string() + "': its " + formatBytes(grid.byteSize()) +
             " of samples need more than the " + formatBytes(space.available) + " free at '" + folder.string() + "'");
    writeNrrdFiles(grid, path, options, [&](OutputFile& file) {
        std::vector<std::byte> samples(size_t(planeBytes * chunk));
        for (uint32_t z = 0; z < planes; z += chunk) {
            uint32_t count = std::min(chunk, planes - z);
            source.readPlanes(z, count, samples.data());
            file.write(samples.data(), size_t(planeBytes * count));
        }
    });
}

} // namespace isoscope
