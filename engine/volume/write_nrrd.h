#pragma once
// Writing a volume as NRRD, so that other tools (VTK, teem, Slicer, the
// Python tests) see exactly the samples isoscope uses, synthetic ones included.
#include <filesystem>

#include "volume/volume.h"

namespace isoscope {

// `.nrrd`: header and raw data in one file. `.nhdr`: the header, with the
// data in a `.raw` of the same stem beside it. Little-endian, raw encoding;
// spacing and origin as `space directions` (diagonal) and `space origin`,
// printed with 17 significant digits so readVolumeFile round-trips exactly.
// An .nhdr's .raw replaces any file of that name, except the volume's own
// source (volume.source, compared with std::filesystem::equivalent): writing
// `scan.nhdr` from `scan.raw` is refused rather than overwriting its input.
// Throws Error for another extension, for that case, or when a file cannot
// be written.
void writeNrrd(const Volume& volume, const std::filesystem::path& path);

} // namespace isoscope
