#pragma once
// What every GPU extraction method implements: its passes, added to a render
// graph. A method is built once for a volume (pipelines, per-volume state such
// as the block method's value ranges) and adds its passes to any graph; the
// graph orders them, places every barrier and holds the frame's work buffers
// as transients. Every method writes the mesh contract of mesh/gpu_mesh.h
// (counts and draw arguments on the GPU).
//
//   PreparedExtraction prepared = prepareGpuExtraction(context, volume, options);
//   GpuMesh mesh = createGpuMesh(context, ...);
//   RenderGraph graph(context);
//   MeshBuffers buffers = importMesh(graph, mesh);
//   prepared.extractor->addToGraph(graph, buffers, iso);   // iso read when the graph records
//   graph.compile();
//   graph.execute();   // then readCounters(): on overflow see growAfterOverflow
//
// extraction_run.h drives this loop for the CLI, benchmarks and tests.
#include <array>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/shader.h"
#include "extract/extract.h"
#include "mesh/gpu_mesh.h"
#include "mesh/mesh_buffers.h"
#include "volume/gpu_volume.h"
#include "volume/volume_region.h"

namespace isoscope {

class Context;
class RenderGraph;

// Where an extractor reads the scalar field from.
struct FieldSource {
    const Volume* volume = nullptr;      // metadata (dims, spacing, origin, type); samples only for CPU-side needs
    const GpuVolume* gpuVolume = nullptr; // the samples on the device
};

// Where a streamed slab's grid lies in the whole volume (extract/stream/):
// the extractor's Volume is the slab's grid (its dims, the whole volume's
// origin and spacing), the image (the scan method: buffer) holds it and the
// planes around it.
struct SlabPlacement {
    int32_t firstPlane = 0;        // the volume's z of the grid's plane 0 (positions match the whole volume's)
    uint32_t imagePlanesBelow = 0; // planes the image holds below the grid's plane 0 (normals read them)
    uint32_t volumePlanes = 0;     // the whole volume's planes (normals' differences are one-sided only at its ends)
    // Imported into the graph about to be built: 4 bytes per vertex of the
    // mesh's capacity, filled with each vertex's edge code
    // (block_common.glsl: the x- or y-edge of the grid's first or last
    // plane it lies on); kNoResource leaves them unwritten.
    ResourceId edgeCodes = kNoResource;
};

class GpuExtractor {
public:
    virtual ~GpuExtractor() = default;

    virtual uint32_t faceSize() const { return 3; }

    // Adds the whole extraction to `graph`: the reset of the mesh's counts
    // (unless the method's passes do it), the method's passes, and
    // finalize_mesh (the draw arguments). `iso` is
    // read each time the graph records, so one compile serves every
    // isovalue. Pass names start with `prefix` (two extractions in one graph).
    // The extractor, `iso` and the mesh's buffers must outlive the graph.
    void addToGraph(RenderGraph& graph, const MeshBuffers& mesh, const float& iso, const std::string& prefix = "");

    // Device bytes the method holds beyond the input volume, the output mesh,
    // its constant tables and the graph's transients: per-volume state that
    // survives frames (value ranges, counters read back after a frame).
    virtual uint64_t auxiliaryBytes() const = 0;
    // Device bytes of constant lookup tables (the 2 KiB marching-cubes case
    // table), the same for every volume and isovalue: reported apart.
    uint64_t tableBytes() const { return caseTable_.allocated; }

    // A first guess at the mesh size {vertices, triangles}; the driver grows
    // it on overflow.
    std::array<uint64_t, 2> estimateCapacity(float iso) const;

    // After an extraction that raised the mesh's overflow flag: grows the
    // method's own work buffers if they were what overflowed (reading its
    // counters back) and says whether it did; the graph must then be built
    // again (its transients changed size). The mesh is the driver's job.
    virtual bool growAfterOverflow() { return false; }

    // The volume's samples changed: anything derived from them alone (the
    // block method's value ranges) is recomputed by the next recording.
    // Isovalue changes need no call.
    virtual void volumeChanged() {}
    // The samples of `region` changed (uploaded by work submitted before
    // `graph` runs): adds the passes that derive again, for that region only,
    // what depends on the samples alone (the block method's value ranges of
    // the blocks holding them). Methods that derive nothing add nothing.
    virtual void addRegionPasses(RenderGraph& /*graph*/, const VolumeRegion& /*region*/) {}

    // Streamed extraction: where the next graphs built find the slab. Only
    // methods built with ExtractOptions::streamedSlabs take it (others throw).
    virtual void placeSlab(const SlabPlacement& placement);

    // What the last extraction worked on, read back after it (outside a
    // frame), for benchmarks: e.g. the block method's listed blocks.
    virtual std::vector<std::pair<std::string, uint64_t>> workCounts() { return {}; }

    // After an extraction without overflow: reads back into `report` what the
    // method makes beside the mesh (the dual method's halfedges and colours).
    virtual void readBackExtras(ExtractionReport& /*report*/, const GpuMeshCounters& /*counters*/) {}

    // The device buffers readBackExtras reads the halfedges and colours from
    // (the dual method built with ExtractOptions::halfedges or colors), for
    // the public API to expose; null handles for those not made. Replaced
    // when growAfterOverflow grows them.
    struct HalfedgeBuffers {
        VkBuffer halfedges = VK_NULL_HANDLE;       // ExtractionReport::halfedges' layout
        VkBuffer vertexHalfedges = VK_NULL_HANDLE; // ExtractionReport::vertexHalfedges'
        VkBuffer vertexColors = VK_NULL_HANDLE;    // ExtractionReport::vertexColors'
        VkBuffer faceColors = VK_NULL_HANDLE;      // ExtractionReport::faceColors'
    };
    virtual HalfedgeBuffers halfedgeBuffers() const { return {}; }

protected:
    // `triangleSoup`: the method writes three vertices of its own per
    // triangle (scan and histopyramid unwelded), which the guess allows for.
    GpuExtractor(Context& context, const Volume& volume, bool triangleSoup = false);
    // The method's own passes, between the counter reset and finalize_mesh.
    virtual void addPasses(RenderGraph& graph, const MeshBuffers& mesh, const float& iso,
                           const std::string& prefix) = 0;
    // True where the method's first pass that touches the mesh's counters
    // resets them itself (a pass and a barrier fewer a frame); then
    // addToGraph adds no reset pass.
    virtual bool resetsMeshCounters() const { return false; }

    // The case table (case_table_gpu.h), which every method's shaders read,
    // imported into `graph`.
    ResourceId importCaseTable(RenderGraph& graph, const std::string& prefix) const;

    std::array<uint32_t, 3> dims_;
    bool triangleSoup_;

private:
    ComputeProgram finalize_;
    Buffer caseTable_;
};

// For a method that reads the samples from the volume's storage buffer (not
// an analytic field, not only the 3D image): throws Error naming `method`
// where `field` has no such buffer.
void requireVolumeBuffer(const FieldSource& field, const ExtractOptions& options, const std::string& method);

// The grid members of a method's push block (`Grid` in its GLSL: dims,
// sample type, origin, spacing), which scan and histopyramid name alike.
template <typename GridPush>
void setGridPush(GridPush& push, const Volume& volume)
{
    push.nx = volume.dims[0];
    push.ny = volume.dims[1];
    push.nz = volume.dims[2];
    push.scalarType = uint32_t(volume.type);
    push.originX = float(volume.origin[0]);
    push.originY = float(volume.origin[1]);
    push.originZ = float(volume.origin[2]);
    push.spacingX = float(volume.spacing[0]);
    push.spacingY = float(volume.spacing[1]);
    push.spacingZ = float(volume.spacing[2]);
}

// Those grid members and the isovalue, then the block's own: for
// checkPushLayout, which compares them by offset.
template <typename GridPush>
std::vector<PushMember> gridPushMembers(std::initializer_list<PushMember> own)
{
#define GRID_MEMBER(m) ISOSCOPE_PUSH_MEMBER(GridPush, m)
    std::vector<PushMember> members = {
        GRID_MEMBER(nx),  GRID_MEMBER(ny),      GRID_MEMBER(nz),      GRID_MEMBER(scalarType),
        GRID_MEMBER(iso), GRID_MEMBER(originX), GRID_MEMBER(originY), GRID_MEMBER(originZ),
        GRID_MEMBER(spacingX), GRID_MEMBER(spacingY), GRID_MEMBER(spacingZ)};
#undef GRID_MEMBER
    members.insert(members.end(), own);
    return members;
}

// Builds the extractor of a GPU method; throws Error for an unknown one.
std::unique_ptr<GpuExtractor> createGpuExtractor(Context& context, const std::string& method, const FieldSource& field,
                                                 const ExtractOptions& options);

// A method's extractor with the volume uploaded in the forms it reads (none
// for an analytic field): what a host keeps to extract frame after frame.
struct PreparedExtraction {
    std::unique_ptr<GpuVolume> volume;
    std::unique_ptr<GpuExtractor> extractor;
};

PreparedExtraction prepareGpuExtraction(Context& context, const Volume& volume, const ExtractOptions& options);

} // namespace isoscope
