#pragma once
// Reading volumes from files: raw, NRRD (.nrrd/.nhdr), MetaImage (.mhd/.mha),
// VTK legacy structured points (.vtk) and NIfTI (.nii, .nii.gz, .hdr/.img).
//
// Every reader checks sizes before it allocates or reads: a truncated file,
// a header that does not match the data, an unknown type or encoding, a
// missing field, zero, negative or overflowing sizes, data that is not 3D, or
// a missing data file is an Error whose message names the file, the problem
// and what to do. Volumes over 2^40 bytes are refused. NaN and ±Inf samples
// are kept and counted in stats.nonFinite. The result is in host byte order
// with stats computed.
//
// Every reader reports its progress (core/progress.h) where it is given a
// Progress: the bytes read from the file, then, for compressed data, the
// bytes decompressed; TIFF stacks by page, DICOM series by file.
#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>
#include <string_view>

#include "core/progress.h"
#include "volume/volume.h"

namespace isoscope {

// What a raw file cannot say about itself. For other formats only the
// fields a header leaves out are used: spacing for TIFF stacks.
struct RawOptions {
    std::optional<std::array<uint32_t, 3>> dims;
    std::optional<ScalarType> type;
    std::optional<std::array<double, 3>> spacing; // default 1 1 1
    bool bigEndian = false;
    uint64_t headerBytes = 0; // skipped at the start of the file
    std::string dicomSeries;  // DICOM: the Series Instance UID to read from a folder holding several
    // Called as the data are read (core/progress.h): bytes of a file, pages
    // of a TIFF stack, files of a DICOM series. Every format reports.
    Progress progress;
};

// A raw file of exactly headerBytes + dims product × type size bytes. Sizes
// and type come from options, or else from the name, as in
// `engine_256x256x128_uint8.raw` (any scalarName or parseScalarName spelling).
Volume readRaw(const std::filesystem::path& path, const RawOptions& options = {});

// Where a file's samples lie, uncompressed, for reading them in place
// (volume/volume_source.h): the grid (no samples), the data file, the
// offset of the first sample and the byte order. Raw files, and NRRD with
// raw or gzip encoding (gzip: `offset` is where the compressed stream
// starts and `gzipSkip` the decompressed bytes before the first sample);
// other formats throw Error saying so. The same checks as the readers
// (sizes, file length) come first.
struct InPlaceLayout {
    Volume grid;
    std::filesystem::path dataPath;
    uint64_t offset = 0;
    bool bigEndian = false;
    bool gzip = false;
    uint64_t gzipSkip = 0;
};
InPlaceLayout describeRaw(const std::filesystem::path& path, const RawOptions& options = {});
InPlaceLayout describeNrrdInPlace(const std::filesystem::path& path);

// NRRD, attached (.nrrd) or detached (.nhdr, `data file:` relative to the
// header's folder): 3D, encodings raw and gzip, either endian, `byte skip`
// (-1: the data are the file's last bytes), `line skip`; spacing from
// `spacings` or the norms of `space directions`; origin from `space origin`;
// directions that rotate or flip the grid kept in Volume::indexToWorld.
Volume readNrrd(const std::filesystem::path& path, const Progress& progress = {});

// MetaImage: .mhd (ElementDataFile names the data) or .mha (ElementDataFile
// = LOCAL); NDims 3, MET_UCHAR/USHORT/SHORT/FLOAT, either byte order,
// CompressedData (zlib).
Volume readMetaImage(const std::filesystem::path& path, const Progress& progress = {});

// VTK legacy file, DATASET STRUCTURED_POINTS with one POINT_DATA SCALARS
// array of unsigned_char, unsigned_short, short or float; BINARY (big-endian,
// as the format prescribes) or ASCII.
Volume readVtk(const std::filesystem::path& path, const Progress& progress = {});

// NIfTI-1 or NIfTI-2 (.nii, .nii.gz, .hdr/.img pairs; ANALYZE 7.5 pairs too),
// through libnifti2. 3D, or 4D..7D holding one volume. uint8, uint16, int16
// and float32 are kept; int8 is widened to int16; int32, uint32, int64,
// uint64 and float64 become float32; others (complex, RGB) are refused with
// the type named. A scl_slope other than 0 (or non-finite) applies, with
// scl_inter, as stored × slope + intercept in float32, as nibabel does.
// The index-to-world map is the sform (sform_code > 0), else the qform
// (qform_code > 0), else pixdim; where it is not axis-aligned it is kept in
// Volume::indexToWorld. Conversions and scaling are listed in Volume::notes.
// Where libnifti repairs a header, its repair stands: a size of 0 is read as
// 1 (the data must then fit), a non-finite scl_inter as 0.
Volume readNifti(const std::filesystem::path& path, const Progress& progress = {});

// A TIFF stack: the pages of each file in turn are the z slices (one
// multi-page file, or single-page files in order). One channel of uint8,
// uint16, int16 or float32 kept as it is; int8 widened to int16, 32-bit
// integers and float64 converted to float32 (noted). Strips or tiles, any
// compression libtiff decodes. Every page must have the first page's size and
// type. Spacing: options.spacing, else ImageJ's metadata (X/YResolution and
// `spacing=` in the ImageDescription), else 1 1 1 with a note.
Volume readTiff(const std::vector<std::filesystem::path>& files, const RawOptions& options = {});

// A DICOM series (GDCM): `where` is a folder, or any one file of the series
// (its folder is scanned). The files of one Series Instance UID (seriesUid;
// else the given file's; else the folder's only one, or an Error listing
// them) are sorted by Image Position (Patient) along the slice normal (the
// cross product of Image Orientation (Patient)); spacing from Pixel Spacing
// and the positions. Rescale Slope/Intercept are applied, each slice its own;
// the values are kept in the smallest engine type that holds them exactly,
// else float32. An oblique or flipped orientation is kept in indexToWorld.
// Uneven steps between slices (gaps) give a note with the numbers. Compressed
// transfer syntaxes decode through GDCM's codecs.
Volume readDicomSeries(const std::filesystem::path& where, const std::string& seriesUid = {},
                       const Progress& progress = {});

// The DICOM series in a folder: Series Instance UID → its files.
std::map<std::string, std::vector<std::string>> listDicomSeries(const std::filesystem::path& folder);

// A folder of slices: its .tif/.tiff files in natural order (slice2 before
// slice10) as one TIFF stack; a folder without TIFF files is read as DICOM.
Volume readVolumeFolder(const std::filesystem::path& folder, const RawOptions& options = {});

// Picks the reader by extension: .raw, .nrrd/.nhdr, .mhd/.mha, .vtk,
// .nii/.nii.gz/.hdr/.img, .tif/.tiff; .dcm, .ima and files that begin as
// DICOM Part 10 files do ("DICM" at byte 128) are read as their series.
Volume readVolumeFile(const std::filesystem::path& path, const RawOptions& options = {});

// A file path, a folder (readVolumeFolder), a glob pattern of slice files
// (`slices/*.tif`, taken in natural order), or a synthetic spec such as
// `cayley:64` (see synthetic.h). A file that exists wins over a spec of the
// same text.
Volume loadVolume(std::string_view pathOrSpec, const RawOptions& options = {});

} // namespace isoscope
