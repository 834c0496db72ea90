// NIfTI-1 and NIfTI-2 (https://nifti.nimh.nih.gov/nifti-1, nifti-2), through
// Debian's libnifti2: .nii, .nii.gz and .hdr/.img pairs; ANALYZE 7.5 pairs
// come through the same library without orientation.
//
// The library parses the header (both versions, either byte order, the
// quaternion qform, the .hdr/.img pairing); this file checks what it reports
// before anything large is allocated, reads and converts the samples to the
// engine's types, and works out the grid's place in the world.
#include <cmath>
#include <cstring>
#include <memory>
#include <string>

#include <nifti2_io.h>

#include "core/error.h"
#include "core/text.h"
#include "volume/read_support.h"
#include "volume/readers.h"

namespace isoscope {

using namespace readsupport;
namespace fs = std::filesystem;

namespace {

using NiftiImage = std::unique_ptr<nifti_image, decltype(&nifti_image_free)>;

std::string number(double value)
{
    char text[32];
    std::snprintf(text, sizeof(text), "%.9g", value);
    return text;
}

// How the file's datatype becomes one of the engine's: kept as it is, widened
// exactly (int8 → int16), or converted to float32 with a note.
struct TypePlan {
    ScalarType type;
    bool lossyToFloat = false; // int32, uint32, int64, uint64, float64
};

std::optional<TypePlan> planType(int datatype)
{
    switch (datatype) {
    case DT_UINT8: return TypePlan{ScalarType::UInt8};
    case DT_UINT16: return TypePlan{ScalarType::UInt16};
    case DT_INT16: return TypePlan{ScalarType::Int16};
    case DT_FLOAT32: return TypePlan{ScalarType::Float32};
    case DT_INT8: return TypePlan{ScalarType::Int16}; // every int8 is an int16
    case DT_INT32:
    case DT_UINT32:
    case DT_INT64:
    case DT_UINT64:
    case DT_FLOAT64: return TypePlan{ScalarType::Float32, true};
    default: return std::nullopt; // complex, RGB, float128, binary
    }
}

// Each sample of the file's type From, through `convert`, stored as To.
template <typename From, typename To, typename Convert>
std::vector<std::byte> convertSamples(const void* data, uint64_t count, Convert convert)
{
    std::vector<std::byte> out(count * sizeof(To));
    const auto* in = static_cast<const std::byte*>(data);
    for (uint64_t i = 0; i < count; ++i) {
        From value;
        std::memcpy(&value, in + i * sizeof(From), sizeof(From));
        To converted = convert(value);
        std::memcpy(out.data() + i * sizeof(To), &converted, sizeof(To));
    }
    return out;
}

// The library's host-order samples of `datatype` as float32, each through
// `convert` (from double, where every type but the 64-bit integers is exact).
template <typename Convert>
std::vector<std::byte> floatSamples(int datatype, const void* data, uint64_t count, Convert convert)
{
    switch (datatype) {
    case DT_UINT8: return convertSamples<uint8_t, float>(data, count, convert);
    case DT_INT8: return convertSamples<int8_t, float>(data, count, convert);
    case DT_UINT16: return convertSamples<uint16_t, float>(data, count, convert);
    case DT_INT16: return convertSamples<int16_t, float>(data, count, convert);
    case DT_INT32: return convertSamples<int32_t, float>(data, count, convert);
    case DT_UINT32: return convertSamples<uint32_t, float>(data, count, convert);
    case DT_INT64: return convertSamples<int64_t, float>(data, count, convert);
    case DT_UINT64: return convertSamples<uint64_t, float>(data, count, convert);
    case DT_FLOAT32: return convertSamples<float, float>(data, count, convert);
    case DT_FLOAT64: return convertSamples<double, float>(data, count, convert);
    }
    return {};
}

// The samples as `to` (unscaled).
std::vector<std::byte> samplesAs(int datatype, ScalarType to, const void* data, uint64_t count)
{
    if (to == ScalarType::Int16 && datatype == DT_INT8)
        return convertSamples<int8_t, int16_t>(data, count, [](int8_t v) { return int16_t(v); });
    if (to == ScalarType::Float32 && datatype != DT_FLOAT32)
        return floatSamples(datatype, data, count, [](auto v) { return float(v); });
    const auto* bytes = static_cast<const std::byte*>(data);
    return {bytes, bytes + count * scalarSize(to)};
}

// The rule nibabel follows (Nifti1Header.get_slope_inter), so both give the
// same values: a slope of 0 or a non-finite slope means no scaling; a valid
// slope with a non-finite intercept is an error.
struct Scaling {
    bool apply = false;
    double slope = 1.0, inter = 0.0;
};

Scaling scalingOf(const fs::path& path, const nifti_image& image)
{
    double slope = image.scl_slope, inter = image.scl_inter;
    if (slope == 0.0 || !std::isfinite(slope))
        return {};
    if (!std::isfinite(inter))
        failFile(path, "scl_slope is " + number(slope) + " but scl_inter is " + number(inter) +
                           "; fix the header's scaling");
    return {slope != 1.0 || inter != 0.0, slope, inter};
}

// stored × slope + intercept in double, rounded once to float32: what
// nibabel's get_fdata() gives, as float32.
std::vector<std::byte> scaledSamples(int datatype, const void* data, uint64_t count, const Scaling& scaling)
{
    return floatSamples(datatype, data, count,
                        [&](auto v) { return float(double(v) * scaling.slope + scaling.inter); });
}

// The map the NIfTI standard prefers: sform when sform_code > 0, else qform
// when qform_code > 0, else pixdim alone ("method 1" of nifti1.h). nibabel's
// get_best_affine picks the same for the first two; for files with neither,
// nibabel follows ANALYZE (x flipped, centred) where NIfTI says method 1.
Affine indexToWorldOf(const fs::path& path, const nifti_image& image)
{
    Affine m{};
    const nifti_dmat44* chosen =
        image.sform_code > 0 ? &image.sto_xyz : image.qform_code > 0 ? &image.qto_xyz : nullptr;
    if (chosen) {
        for (int row = 0; row < 4; ++row)
            for (int column = 0; column < 4; ++column)
                m[row][column] = chosen->m[row][column];
    } else {
        for (int axis = 0; axis < 3; ++axis)
            m[axis][axis] = std::fabs(image.pixdim[axis + 1]);
    }
    m[3] = {0.0, 0.0, 0.0, 1.0};
    const char* which = image.sform_code > 0 ? "sform" : image.qform_code > 0 ? "qform" : "pixdim";
    for (int row = 0; row < 3; ++row)
        for (int column = 0; column < 4; ++column)
            if (!std::isfinite(m[row][column]))
                failFile(path, std::string(which) + " has a non-finite entry (" + number(m[row][column]) + ")");
    return m;
}

// Spacing, origin and, where the map is not origin + index × spacing, the
// map. An axis-aligned map gives both; otherwise spacing is pixdim (what
// nibabel calls zooms), or the map's column lengths where pixdim is unusable,
// and origin is the map's translation.
void placeGrid(const fs::path& path, Volume& volume, const Affine& m, const nifti_image& image)
{
    bool axisAligned = true;
    bool pixdimUsable = true;
    for (int axis = 0; axis < 3; ++axis) {
        double squared = 0.0;
        for (int row = 0; row < 3; ++row) {
            squared += m[row][axis] * m[row][axis];
            if (row != axis && m[row][axis] != 0.0)
                axisAligned = false;
        }
        if (!(m[axis][axis] > 0.0))
            axisAligned = false;
        double pixdim = std::fabs(image.pixdim[axis + 1]);
        pixdimUsable = pixdimUsable && std::isfinite(pixdim) && pixdim > 0.0;
        volume.spacing[axis] = std::sqrt(squared);
        volume.origin[axis] = m[axis][3];
    }
    if (!axisAligned && pixdimUsable)
        for (int axis = 0; axis < 3; ++axis)
            volume.spacing[axis] = std::fabs(image.pixdim[axis + 1]);
    checkSpacing(path, "the index-to-world map's column lengths", volume.spacing);
    if (!axisAligned)
        volume.indexToWorld = m;
}

// 3D, or 4D..7D with one volume; each size fits the engine's 32-bit sizes.
std::array<uint32_t, 3> gridOf(const fs::path& path, const nifti_image& image)
{
    int64_t ndim = image.dim[0];
    if (ndim < 3 || ndim > 7)
        failFile(path, "dim[0] is " + std::to_string(ndim) + "; isoscope reads 3D volumes only");
    for (int extra = 4; extra <= ndim; ++extra)
        if (image.dim[extra] != 1)
            failFile(path, "holds a " + std::to_string(ndim) + "D image (dim[" + std::to_string(extra) + "] = " +
                               std::to_string(image.dim[extra]) +
                               "); isoscope reads one 3D volume (split it first, e.g. with fslsplit)");
    std::array<uint32_t, 3> dims{};
    for (int axis = 0; axis < 3; ++axis) {
        int64_t size = image.dim[axis + 1];
        if (size <= 0)
            failFile(path, "dim[" + std::to_string(axis + 1) + "]: size " + std::to_string(size) + " must be positive");
        if (size > int64_t(UINT32_MAX))
            failFile(path, "dim[" + std::to_string(axis + 1) + "]: size " + std::to_string(size) + " is too large");
        dims[axis] = uint32_t(size);
    }
    return dims;
}

// The samples in host order, read here rather than by nifti_image_load: that
// looks the data file up again by prefix, and beside a `scan.nii` it reads
// the data of `scan.nii.gz` from the wrong file. Reading here also gives the
// readers' shared checks (truncated, corrupt or too long compressed data),
// and progress as the bytes arrive: nifti_image_load reads in one call.
std::vector<std::byte> readData(const fs::path& path, const nifti_image& image, uint64_t bytes,
                                const Progress& progress)
{
    bool singleFile = image.nifti_type == NIFTI_FTYPE_NIFTI1_1 || image.nifti_type == NIFTI_FTYPE_NIFTI2_1;
    fs::path dataPath = singleFile ? path : fs::path(image.iname ? image.iname : "");
    if (dataPath.empty())
        failFile(path, "libnifti found no image data file for this header (.img beside the .hdr?)");
    if (image.iname_offset < 0)
        failFile(path, "vox_offset " + std::to_string(image.iname_offset) + " is negative");
    uint64_t offset = uint64_t(image.iname_offset);
    std::vector<std::byte> data;
    try {
        if (nifti_is_gzfile(dataPath.c_str())) {
            // gzip has no random access: inflate the header too, then drop it.
            data = inflateExactly(dataPath, readBytes(dataPath, 0, fileSize(dataPath), progress), offset + bytes,
                                  progress);
            data.erase(data.begin(), data.begin() + std::ptrdiff_t(offset));
        } else {
            data = readBytes(dataPath, offset, bytes, progress);
        }
    } catch (const Error& error) {
        if (dataPath == path)
            throw;
        fail(std::string(error.what()) + " (the data of '" + path.filename().string() + "')");
    }
    if (image.byteorder != nifti_short_order() && image.swapsize > 1)
        nifti_swap_Nbytes(int64_t(bytes / uint64_t(image.swapsize)), image.swapsize, data.data());
    return data;
}

NiftiImage readHeader(const fs::path& path)
{
    fileSize(path); // exists, and is not a folder
    nifti_set_debug_level(0); // the library's own messages go to stderr; ours name the file instead
    NiftiImage image(nifti_image_read(path.c_str(), 0), nifti_image_free);
    if (!image)
        failFile(path, "libnifti cannot read it as NIfTI-1, NIfTI-2 or ANALYZE 7.5 (truncated header, not a "
                       "NIfTI file, or the .hdr/.img partner missing)");
    return image;
}

} // namespace

Volume readNifti(const fs::path& path, const Progress& progress)
{
    NiftiImage image = readHeader(path);
    std::string typeName = lowercase(nifti_datatype_to_string(image->datatype)); // "NIFTI_TYPE_INT16" → "int16"
    if (typeName.starts_with("nifti_type_"))
        typeName.erase(0, 11);
    std::optional<TypePlan> plan = planType(image->datatype);
    if (!plan)
        failFile(path, "datatype " + typeName + " (" + std::to_string(image->datatype) +
                           ") is not supported; isoscope reads scalar integer and float types "
                           "(uint8 int8 uint16 int16 int32 uint32 int64 uint64 float32 float64)");

    Scaling scaling = scalingOf(path, *image);
    Volume volume;
    volume.dims = gridOf(path, *image);
    volume.type = scaling.apply ? ScalarType::Float32 : plan->type;
    checkedByteSize(path, volume.dims, volume.type);
    if (image->nvox < 0 || uint64_t(image->nvox) != volume.sampleCount() || image->nbyper <= 0)
        failFile(path, "the header's voxel count " + std::to_string(image->nvox) + " does not match dim");
    uint64_t fileBytes = volume.sampleCount() * uint64_t(image->nbyper);
    if (fileBytes > maxVolumeBytes)
        failFile(path, "the data need more than 1 TiB; isoscope refuses volumes this large (a corrupt header?)");
    std::vector<std::byte> fileData = readData(path, *image, fileBytes, progress);
    if (scaling.apply) {
        volume.data = scaledSamples(image->datatype, fileData.data(), volume.sampleCount(), scaling);
        volume.notes.push_back("scl_slope " + number(scaling.slope) + " and scl_inter " + number(scaling.inter) +
                               " applied: " + typeName + " samples became float32 stored × slope + intercept");
    } else {
        volume.data = samplesAs(image->datatype, volume.type, fileData.data(), volume.sampleCount());
        if (plan->lossyToFloat)
            volume.notes.push_back(typeName + " samples converted to float32 (the engine's types are uint8, uint16, "
                                              "int16 and float32): rounded to float32 precision (24 bits)");
        else if (image->datatype == DT_INT8)
            volume.notes.push_back("int8 samples widened to int16");
    }
    placeGrid(path, volume, indexToWorldOf(path, *image), *image);
    return finishVolume(std::move(volume), path);
}

} // namespace isoscope
