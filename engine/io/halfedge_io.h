#pragma once
// The dual method's halfedge structure and colours (ExtractionReport) as a
// compact little-endian binary beside its mesh, for tests and tools:
//   "ISOHALF1" (8 bytes); uint32 vertices, faces, halfedges, flags (1: colours);
//   per halfedge four uint32: origin vertex, face, next, twin (0xFFFFFFFF: none);
//   per vertex one uint32: an outgoing halfedge (0xFFFFFFFF: none);
//   with colours, per vertex its colour (0 .. 7), then per face its colour (0 .. 4).
// Halfedge h leaves corner h % 4 of face h / 4 of the mesh written with it.
#include <filesystem>

#include "extract/extract.h"
#include "io/output_file.h"

namespace isoscope {

// `MESH.halfedges`: where extract --halfedges writes it beside the mesh.
std::filesystem::path halfedgesPathFor(const std::filesystem::path& meshPath);

// Throws Error naming path where the report holds no halfedges, or the file fails.
void writeHalfedges(const ExtractionReport& report, const std::filesystem::path& path,
                    const WriteOptions& options = {});

} // namespace isoscope
