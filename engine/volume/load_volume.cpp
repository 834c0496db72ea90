// Choosing a reader: by extension for files, by form for synthetic specs.
#include <algorithm>
#include <cctype>
#include <system_error>

#include <cstring>
#include <fstream>

#include <glob.h>

#include "core/error.h"
#include "core/text.h"
#include "volume/read_support.h"
#include "volume/readers.h"
#include "volume/synthetic.h"

namespace isoscope {

namespace fs = std::filesystem;

namespace {

// ".nii.gz" and the like: NIfTI names its compressed files by two extensions.
bool isNiftiName(const fs::path& path)
{
    std::string name = lowercase(path.filename().string());
    for (std::string_view ending : {".nii", ".nii.gz", ".hdr", ".hdr.gz", ".img", ".img.gz"})
        if (name.size() > ending.size() && name.ends_with(ending))
            return true;
    return false;
}

bool isTiffName(const fs::path& path)
{
    std::string extension = lowercase(path.extension().string());
    return extension == ".tif" || extension == ".tiff";
}

// "slice2" before "slice10": runs of digits compare by value.
bool naturalLess(const fs::path& a, const fs::path& b)
{
    std::string x = a.filename().string(), y = b.filename().string();
    size_t i = 0, j = 0;
    while (i < x.size() && j < y.size()) {
        if (std::isdigit((unsigned char)x[i]) && std::isdigit((unsigned char)y[j])) {
            size_t iEnd = x.find_first_not_of("0123456789", i), jEnd = y.find_first_not_of("0123456789", j);
            std::string_view u = std::string_view(x).substr(i, iEnd - i), v = std::string_view(y).substr(j, jEnd - j);
            u.remove_prefix(std::min(u.find_first_not_of('0'), u.size() - 1)); // "007" → "7"
            v.remove_prefix(std::min(v.find_first_not_of('0'), v.size() - 1));
            if (u.size() != v.size())
                return u.size() < v.size();
            if (u != v)
                return u < v;
            i = iEnd == std::string::npos ? x.size() : iEnd;
            j = jEnd == std::string::npos ? y.size() : jEnd;
            continue;
        }
        if (x[i] != y[j])
            return x[i] < y[j];
        ++i, ++j;
    }
    return x.size() - i < y.size() - j || (x.size() - i == y.size() - j && a < b);
}

std::vector<fs::path> sortedNaturally(std::vector<fs::path> files)
{
    std::sort(files.begin(), files.end(), naturalLess);
    return files;
}

// A DICOM Part 10 file: 128 bytes of preamble, then "DICM".
bool looksLikeDicom(const fs::path& path)
{
    std::ifstream file(path, std::ios::binary);
    char magic[4] = {};
    return file.seekg(128) && file.read(magic, 4) && std::memcmp(magic, "DICM", 4) == 0;
}

// The files a shell glob names, or none.
std::vector<fs::path> expandGlob(const std::string& pattern)
{
    glob_t found{};
    std::vector<fs::path> files;
    if (::glob(pattern.c_str(), GLOB_NOSORT, nullptr, &found) == 0)
        for (size_t i = 0; i < found.gl_pathc; ++i)
            files.emplace_back(found.gl_pathv[i]);
    globfree(&found);
    return files;
}

} // namespace

Volume readVolumeFolder(const fs::path& folder, const RawOptions& options)
{
    std::vector<fs::path> tiffs;
    std::error_code error;
    for (fs::directory_iterator entry(folder, error), end; !error && entry != end; entry.increment(error))
        if (isTiffName(entry->path()) && entry->is_regular_file(error))
            tiffs.push_back(entry->path());
    if (error)
        readsupport::failFile(folder, "cannot list the folder: " + error.message());
    if (tiffs.empty())
        return readDicomSeries(folder, options.dicomSeries, options.progress);
    return readTiff(sortedNaturally(std::move(tiffs)), options);
}

Volume readVolumeFile(const fs::path& path, const RawOptions& options)
{
    std::string extension = lowercase(path.extension().string());
    if (isNiftiName(path))
        return readNifti(path, options.progress);
    if (extension == ".raw")
        return readRaw(path, options);
    if (extension == ".nrrd" || extension == ".nhdr")
        return readNrrd(path, options.progress);
    if (extension == ".mhd" || extension == ".mha")
        return readMetaImage(path, options.progress);
    if (extension == ".vtk")
        return readVtk(path, options.progress);
    if (isTiffName(path))
        return readTiff({path}, options);
    if (extension == ".dcm" || extension == ".ima" || looksLikeDicom(path))
        return readDicomSeries(path, options.dicomSeries, options.progress);
    readsupport::failFile(path, "unknown volume format '" + extension +
                                    "'; isoscope reads .raw, .nrrd, .nhdr, .mhd, .mha, .vtk (structured points), "
                                    ".nii, .nii.gz and .hdr/.img (NIfTI), .tif and .tiff (stacks), .dcm and folders (DICOM series)");
}

Volume loadVolume(std::string_view pathOrSpec, const RawOptions& options)
{
    fs::path path(pathOrSpec);
    std::error_code error;
    if (fs::exists(path, error))
        return fs::is_directory(path, error) ? readVolumeFolder(path, options) : readVolumeFile(path, options);
    if (pathOrSpec.find_first_of("*?[") != std::string_view::npos) {
        std::vector<fs::path> files = expandGlob(std::string(pathOrSpec));
        if (files.empty())
            fail("'" + std::string(pathOrSpec) + "': the pattern matches no files");
        for (const fs::path& file : files)
            if (!isTiffName(file))
                readsupport::failFile(file, "matched by '" + std::string(pathOrSpec) +
                                                "', but a pattern reads TIFF slices only (.tif, .tiff)");
        return readTiff(sortedNaturally(std::move(files)), options);
    }
    if (isSyntheticSpec(pathOrSpec))
        return makeSyntheticVolume(pathOrSpec);
    std::string problem = error ? "cannot look at the file (" + error.message() + ")" : "no such file";
    fail("'" + std::string(pathOrSpec) + "': " + problem +
         ", and not a synthetic volume (NAME:N or NAME:NXxNYxNZ, NAME one of " +
         join(syntheticFieldNames(), ", ") + ")");
}

} // namespace isoscope
