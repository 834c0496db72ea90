#pragma once
// Mesh files written while the mesh is still being made (streamed
// extraction, extract/stream/): binary PLY and binary STL, whose counts are
// patched into the header at the end. All or nothing, as every output
// (io/output_file.h): until commit() only a temporary exists, and an error
// or an exception removes it, so a failed extraction leaves no file that
// looks complete.
//
//   auto writer = openStreamedMeshWriter("surface.ply", grid, MeshPlacement::World, IfExists::Refuse);
//   extractStreamed(context, source, iso, options, stream, *writer);
//   writer->commit();
#include <filesystem>
#include <memory>

#include "mesh/mesh_sink.h"
#include "io/output_file.h"
#include "volume/volume.h"

namespace isoscope {

enum class MeshPlacement { World, IndexSpace }; // mesh/world_transform.h: placeInWorld or toIndexSpace

class StreamedMeshWriter : public MeshSink {
public:
    // Finishes the file (PLY: appends the faces) and moves it into place.
    virtual void commit(const Progress& progress = {}) = 0;
};

// Whether `path` names a format written this way (.ply, .stl) at a place a
// temporary can be renamed onto (not an existing device or pipe).
bool streamsMeshFormat(const std::filesystem::path& path);

// Throws Error for another format. Positions and normals are placed as
// `placement` says for `grid` (the volume the mesh comes from).
std::unique_ptr<StreamedMeshWriter> openStreamedMeshWriter(const std::filesystem::path& path, const Volume& grid,
                                                           MeshPlacement placement, IfExists ifExists);

} // namespace isoscope
