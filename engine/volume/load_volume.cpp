// Choosing a reader: by extension for files, by form for synthetic specs.
#include <system_error>

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

} // namespace

Volume readVolumeFile(const fs::path& path, const RawOptions& options)
{
    std::string extension = lowercase(path.extension().string());
    if (isNiftiName(path))
        return readNifti(path);
    if (extension == ".raw")
        return readRaw(path, options);
    if (extension == ".nrrd" || extension == ".nhdr")
        return readNrrd(path);
    if (extension == ".mhd" || extension == ".mha")
        return readMetaImage(path);
    if (extension == ".vtk")
        return readVtk(path);
    readsupport::failFile(path, "unknown volume format '" + extension +
                                    "'; isoscope reads .raw, .nrrd, .nhdr, .mhd, .mha, .vtk (structured points), "
                                    ".nii, .nii.gz and .hdr/.img (NIfTI)");
}

Volume loadVolume(std::string_view pathOrSpec, const RawOptions& options)
{
    fs::path path(pathOrSpec);
    std::error_code error;
    if (fs::exists(path, error))
        return readVolumeFile(path, options);
    if (isSyntheticSpec(pathOrSpec))
        return makeSyntheticVolume(pathOrSpec);
    std::string problem = error ? "cannot look at the file (" + error.message() + ")" : "no such file";
    fail("'" + std::string(pathOrSpec) + "': " + problem +
         ", and not a synthetic volume (NAME:N or NAME:NXxNYxNZ, NAME one of " +
         join(syntheticFieldNames(), ", ") + ")");
}

} // namespace isoscope
