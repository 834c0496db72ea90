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
};

// The method's name as the CLI spells it ("block", "scan", "histopyramid"); "" for a value not a Method.
ISOSCOPE_API const char* methodName(Method method);

struct IsosurfaceOptions {
    Method method = Method::Block;
    bool weld = true; // false keeps each method's duplicate vertices (block: one copy per block face)
};

// The mesh in device buffers. Vertices: `vertexStride` bytes each, position
// (3 floats, world units) at `positionOffset`, unit normal (3 floats,
// pointing out of the region >= isovalue) at `normalOffset`. Indices:
// uint32 triangles. drawArguments holds a VkDrawIndexedIndirectCommand at
// drawArgumentsOffset, written by the frame that extracted the mesh. The
// handles change when the mesh grows: read them again each frame.
struct MeshBuffers {
    VkBuffer vertices = VK_NULL_HANDLE;
    VkBuffer indices = VK_NULL_HANDLE;
    VkBuffer drawArguments = VK_NULL_HANDLE;
    VkDeviceSize drawArgumentsOffset = 0;
    uint32_t vertexStride = 24;
    uint32_t positionOffset = 0;
    uint32_t normalOffset = 12;
    VkIndexType indexType = VK_INDEX_TYPE_UINT32;
};

// GPU milliseconds of one pass of a frame or an extraction (its timestamps).
struct PassTime {
    std::string pass;
    double ms = 0.0;
};

// A mesh read back to the host.
struct HostMesh {
    std::vector<std::array<float, 3>> positions;
    std::vector<std::array<float, 3>> normals;
    std::vector<uint32_t> indices; // triangles
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
};

} // namespace isoscope::api
