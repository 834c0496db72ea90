#pragma once
// Writing a volume as NRRD, so that other tools (VTK, teem, Slicer, the
// Python tests) see exactly the samples isoscope uses, synthetic ones included.
#include <filesystem>
#include <vector>

#include "io/output_file.h"
#include "volume/volume.h"

namespace isoscope {

class VolumeSource;

// `.nrrd`: header and raw data in one file. `.nhdr`: the header, with the
// data in a `.raw` of the same stem beside it. Little-endian, raw encoding;
// the index-to-world map (worldMatrix: spacing and origin, or indexToWorld
// where set) as `space directions` and `space origin`,
// printed with 17 significant digits so readVolumeFile round-trips exactly.
// With IfExists::Replace an .nhdr's .raw replaces any file of that name,
// except the volume's own source (volume.source, compared with
// std::filesystem::equivalent): writing `scan.nhdr` from `scan.raw` is
// refused rather than overwriting its input. With IfExists::Refuse neither
// file may exist: the .raw beside an .nhdr is checked before anything is
// written. Throws Error for another extension, for those cases, or when a
// file cannot be written (then neither file is left: io/output_file.h).
// Reports the bytes written to options.progress (core/progress.h).
void writeNrrd(const Volume& volume, const std::filesystem::path& path, const WriteOptions& options = {});

// The same for a volume read plane range by plane range
// (volume/volume_source.h): 256 MiB of planes at a time, so a volume larger
// than the host's memory converts too; refused before anything is written
// where the output's file system has less space free than the samples.
// Throws the source's Error (then no file is left, as above).
void writeNrrd(VolumeSource& source, const std::filesystem::path& path, const WriteOptions& options = {});

// The files writeNrrd(path) writes: path, and for an .nhdr the .raw beside it.
std::vector<std::filesystem::path> nrrdOutputFiles(const std::filesystem::path& path);

} // namespace isoscope
