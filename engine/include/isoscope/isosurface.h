#pragma once
// An isosurface extracted on the GPU into a mesh that stays there: the host
// draws it from the exposed vertex, index and indirect-argument buffers with
// its own pipeline (the GPU writes the draw's index count), or lets
// isoscope's raster pass draw it (Renderer). extract() runs one extraction
// on its own and reads the mesh back, for headless use.
//
//   auto surface = isoscope::api::Isosurface::create(context, *volume, {isoscope::api::Method::Block});
//   auto mesh = surface->extract(0.5f);               // submits, waits, reads back
//   surface->writeMesh("surface.ply");                // PLY, OBJ, STL, glTF, VTP by extension
//   isoscope::api::MeshBuffers b = surface->buffers(); // for the host's own draw
//   vkCmdDrawIndexedIndirect(cmd, b.drawArguments, b.drawArgumentsOffset, 1, 0);
//
// A face is `faceSize` consecutive uint32 indices into the vertices: 3 for
// every method but Method::Dual, whose faces are quads (4). Quads are
// planar only approximately; a host draws quad (a, b, c, d) as triangles
// (a, b, c) and (a, c, d) (MeshBuffers says how), as isoscope's raster pass does.
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <vulkan/vulkan_core.h>

#include "isoscope/context.h"
#include "isoscope/handle.h"
#include "isoscope/volume.h"

namespace isoscope::api {

namespace detail {
struct IsosurfaceImpl;
} // namespace detail

enum class Method {
    Block,        // Parallel Marching Blocks: welded, fastest on large volumes
    Scan,         // a scan over every cell: unwelded triangles
    HistoPyramid, // Dyken et al.'s histogram pyramid: unwelded triangles
    // Dual Marching Cubes (Grosso & Zint): quads (faceSize 4), one vertex per
    // Marching Cubes polygon of a cell, on the cell's trilinear isosurface,
    // about half Block's vertices; the halfedge structure on request. Always
    // welded (weld = false is refused).
    Dual,
};

// The method's name as the CLI spells it ("block", "scan", "histopyramid",
// "dual"); "" for a value not a Method.
ISOSCOPE_API const char* methodName(Method method);
// Every method this build has, in Method's order: what a host offers.
ISOSCOPE_API std::vector<Method> methods();
// Indices per face of the method's meshes: 3 (triangles), 4 for Dual
// (quads); 0 for a value not a Method.
ISOSCOPE_API uint32_t methodFaceSize(Method method);

struct IsosurfaceOptions {
    Method method = Method::Block;
    bool weld = true; // false keeps each method's duplicate vertices (block: one copy per block face)
    // Dual only (InvalidArgument for another method): each extraction, a
    // frame's or extract()'s, also writes the halfedge structure of its quad
    // mesh into device buffers (halfedgeBuffers()).
    bool halfedges = false;
    // Dual only: the paper's colouring too (HalfedgeBuffers' colours; it
    // makes the halfedges, which it needs, as well).
    bool colors = false;
};

// The mesh in device buffers. Vertices: `vertexStride` bytes each, position
// (3 floats, world units) at `positionOffset`, unit normal (3 floats,
// pointing out of the region >= isovalue) at `normalOffset`. Indices:
// uint32, `faceSize` a face. drawArguments holds a
// VkDrawIndexedIndirectCommand at drawArgumentsOffset, written by the frame
// that extracted the mesh (indexCount: faceSize times the faces written).
// The handles change when the mesh grows: read them again each frame.
//
// Triangles (faceSize 3): bind the vertex and index buffers and draw
// drawArguments with vkCmdDrawIndexedIndirect, as above; the frame leaves
// them in the vertex-input, index-input and indirect-command states.
//
// Quads (faceSize 4, Method::Dual): Vulkan draws no quads, and an index
// buffer of 4 a face is no triangle list. Draw quadDrawArguments (a
// VkDrawIndirectCommand: 6 vertices a written quad) with vkCmdDrawIndirect
// and no vertex input, and pull the vertices in the vertex shader from the
// index and vertex buffers bound as storage buffers (the frame leaves them
// ready for vertex-shader storage reads):
//   uint quad = gl_VertexIndex / 6, corner = uint[](0, 1, 2, 0, 2, 3)[gl_VertexIndex % 6];
//   vertex = vertices[indices[4 * quad + corner]];
// which draws quad (a, b, c, d) as (a, b, c) and (a, c, d) with the same
// winding. Frames write quadDrawArguments only for a surface added with
// SurfaceStyle::draw = false (the host draws it); extract() does not.
struct MeshBuffers {
    VkBuffer vertices = VK_NULL_HANDLE;
    VkBuffer indices = VK_NULL_HANDLE;
    VkBuffer drawArguments = VK_NULL_HANDLE;
    VkDeviceSize drawArgumentsOffset = 0;
    uint32_t vertexStride = 24;
    uint32_t positionOffset = 0;
    uint32_t normalOffset = 12;
    VkIndexType indexType = VK_INDEX_TYPE_UINT32;
    uint32_t faceSize = 3;                           // indices a face: 3 or 4
    VkBuffer quadDrawArguments = VK_NULL_HANDLE;     // faceSize 4 only: a VkDrawIndirectCommand at offset 0
};

// The halfedge structure of a Dual quad mesh (IsosurfaceOptions::halfedges),
// in device buffers of uint32, written by each extraction beside the mesh.
// Halfedge h runs along corner h % 4 of face f = h / 4 to the next corner
// (so face f's halfedges are 4f .. 4f + 3), and holds 4 uint32 at 4h:
// its origin vertex, its face, the next halfedge of its face, and its twin
// (the halfedge of the neighbouring face running the other way; 0xFFFFFFFF
// where none). An edge four faces share (a tunnel between two cells) pairs
// them so that the faces keep a consistent orientation.
// vertexHalfedges: per vertex, one halfedge leaving it. With
// IsosurfaceOptions::colors, vertexColors: per vertex its cell's colour,
// 0 .. 7 (Grosso & Zint's 8 cell colours); faceColors: per face 0 .. 4, no
// two faces sharing a manifold edge alike (where the greedy reduction from
// the 24 edge colours found no free one, the face keeps its edge colour, 5
// .. 23). Counts: the mesh's
// (the faces and vertices written). Read them once the frame or extract()
// that wrote them has finished (a host reading them in the frame's own
// command buffer first waits on compute-shader writes). The handles change
// when the buffers grow: read them again after each frame or extract().
struct HalfedgeBuffers {
    VkBuffer halfedges = VK_NULL_HANDLE;       // 16 bytes a halfedge, 4 halfedges a face
    VkBuffer vertexHalfedges = VK_NULL_HANDLE; // 4 bytes a vertex
    VkBuffer vertexColors = VK_NULL_HANDLE;    // 4 bytes a vertex (colors only)
    VkBuffer faceColors = VK_NULL_HANDLE;      // 4 bytes a face (colors only)
};

// GPU milliseconds of one pass of a frame or an extraction (its timestamps).
struct PassTime {
    std::string pass;
    double ms = 0.0;
};

// A mesh read back to the host. Every method's faces, dual's quads too, wind
// counter-clockwise around their normal, which points toward decreasing
// values (out of a bright object), as VTK orients them.
struct HostMesh {
    std::vector<std::array<float, 3>> positions;
    std::vector<std::array<float, 3>> normals;
    std::vector<uint32_t> indices; // faceSize a face
    uint32_t faceSize = 3;         // 3 (triangles) or 4 (quads: Method::Dual)
};

class ISOSCOPE_API Isosurface : public detail::Handle<detail::IsosurfaceImpl> {
public:
    using Handle::Handle;

    static Result<Isosurface> create(Context& context, Volume& volume, const IsosurfaceOptions& options = {});

    // The isovalue the next frame extracts at, in the data's own units
    // (InvalidArgument when not finite).
    Status setIsovalue(float iso);
    float isovalue() const;

    // Extracts at `iso` on a submission of its own (growing the buffers
    // until the mesh fits), waits and reads the mesh back.
    Result<HostMesh> extract(float iso);
    // GPU milliseconds per pass of the last extract()'s final run (the one
    // that fit), in order; empty before one or where the queue has no
    // timestamps. Uploads and the read-back are not passes.
    std::vector<PassTime> lastPassTimes() const;
    // Writes the last mesh extract() read back; the format by extension
    // (.ply, .obj, .stl, .gltf, .glb, .vtp).
    Status writeMesh(const std::string& path) const;

    MeshBuffers buffers() const;
    Method method() const;
    // The halfedge buffers: null handles unless made with
    // IsosurfaceOptions::halfedges (or colors; the colours only with colors).
    HalfedgeBuffers halfedgeBuffers() const;
};

} // namespace isoscope::api
