#pragma once
// Internal to engine/volume: a bounds check of a DICOM Part 10 file's element
// structure, before GDCM parses it.
//
// Debian's GDCM is built with assertions on, and some truncated files abort
// the process inside its parser (gdcmReader.cxx: `is.good()`), so no file
// reaches GDCM until every element, sequence item and pixel-data fragment has
// been seen to end inside the file.
#include <filesystem>

namespace isoscope::readsupport {

enum class DicomFileKind {
    NotDicom, // no "DICM" at byte 128: some other file in the folder
    Sound,    // every element ends inside the file; safe to give to GDCM
};

// NotDicom or Sound; fails, naming the file, the element and the byte
// offsets, when a Part 10 file is truncated or malformed, when it has no
// Pixel Data (GDCM's scanner asserts on those too), and for the
// deflated transfer syntax (whose elements cannot be walked without
// inflating).
DicomFileKind checkDicomStructure(const std::filesystem::path& path);

} // namespace isoscope::readsupport
