#include "volume/write_nrrd.h"

#include <bit>
#include <cstdio>
#include <fstream>
#include <system_error>

#include "core/error.h"

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
    const auto& s = volume.spacing;
    const auto& o = volume.origin;
    // Vectors without spaces inside: VTK's reader splits the field on spaces.
    std::string text = "NRRD0004\n";
    if (!volume.source.empty())
        text += "# written by isoscope from " + oneLine(volume.source) + "\n";
    text += "type: " + std::string(nrrdTypeName(volume.type)) + "\n";
    text += "dimension: 3\n";
    text += "space dimension: 3\n";
    text += "sizes: " + std::to_string(d[0]) + " " + std::to_string(d[1]) + " " + std::to_string(d[2]) + "\n";
    text += "space directions: (" + exact(s[0]) + ",0,0) (0," + exact(s[1]) + ",0) (0,0," + exact(s[2]) + ")\n";
    text += "space origin: (" + exact(o[0]) + "," + exact(o[1]) + "," + exact(o[2]) + ")\n";
    text += "kinds: domain domain domain\n";
    text += std::string("endian: ") + (std::endian::native == std::endian::big ? "big" : "little") + "\n";
    text += "encoding: raw\n";
    if (!dataFile.empty())
        text += "data file: " + dataFile + "\n";
    return text + "\n";
}

void writeFile(const fs::path& path, const std::string& text, const std::vector<std::byte>* data)
{
    std::ofstream file(path, std::ios::binary | std::ios::trunc);
    if (!file)
        fail("cannot write '" + path.string() + "': check that the folder exists and is writable");
    file.write(text.data(), std::streamsize(text.size()));
    if (data)
        file.write(reinterpret_cast<const char*>(data->data()), std::streamsize(data->size()));
    file.close();
    if (!file)
        fail("writing '" + path.string() + "' failed (disk full?)");
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

void writeNrrd(const Volume& volume, const fs::path& path)
{
    if (volume.data.size() != volume.byteSize())
        fail("cannot write '" + path.string() + "': the volume holds " + std::to_string(volume.data.size()) +
             " bytes, its sizes and type call for " + std::to_string(volume.byteSize()));
    std::string extension = path.extension().string();
    if (extension == ".nrrd") {
        writeFile(path, header(volume, ""), &volume.data);
    } else if (extension == ".nhdr") {
        fs::path dataPath = fs::path(path).replace_extension(".raw");
        if (isSourceFile(volume, dataPath))
            fail("cannot write '" + path.string() + "': its data file '" + dataPath.string() +
                 "' is the volume's own source file and would be overwritten; write the .nhdr under another name, "
                 "or as one .nrrd");
        writeFile(dataPath, "", &volume.data);
        writeFile(path, header(volume, dataPath.filename().string()), nullptr);
    } else {
        fail("cannot write '" + path.string() + "': NRRD output must end in .nrrd (one file) or .nhdr (header + .raw)");
    }
}

} // namespace isoscope
