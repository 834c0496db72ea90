#pragma once
// The raster pass: draws a GpuMesh (mesh/gpu_mesh.h) straight from its
// device buffers with vkCmdDrawIndexedIndirect, so the triangle count the
// extractor wrote on the GPU is the count drawn and no CPU read-back sits in
// between. Dynamic rendering into a colour and a depth target, which stay in
// the graph for later passes (a raycaster compositing against the depth).
//
//   MeshRenderer renderer(context);
//   MeshBuffers mesh = importMesh(graph, gpuMesh);
//   ResourceId color = graph.createImage("color", extent, MeshRenderer::kColorFormat);
//   ResourceId depth = graph.createImage("depth", extent, MeshRenderer::kDepthFormat);
//   addMeshPass(graph, renderer, mesh, {color, depth}, params); // params read at record time
#include <glm/glm.hpp>

#include "core/graphics_program.h"
#include "graph/render_graph.h"
#include "mesh/mesh_buffers.h"
#include "render/camera.h"

namespace isoscope {


struct MeshTargets {
    ResourceId color = kNoResource;
    ResourceId depth = kNoResource;
};

// Per-frame parameters; the pass reads them each time the graph records.
struct MeshDrawParams {
    OrbitCamera camera;
    glm::vec3 frontColor{0.85f, 0.62f, 0.32f};
    glm::vec3 backColor{0.35f, 0.55f, 0.85f};
    glm::vec4 clearColor{0.08f, 0.08f, 0.10f, 1.0f};
    bool clear = true; // false: draw over what earlier passes left in the targets
};

class MeshRenderer {
public:
    static constexpr VkFormat kColorFormat = VK_FORMAT_R8G8B8A8_UNORM;
    static constexpr VkFormat kDepthFormat = VK_FORMAT_D32_SFLOAT;

    explicit MeshRenderer(Context& context);
    const GraphicsProgram& program() const { return program_; }
    const GraphicsProgram& quadProgram() const { return quadProgram_; }
    const ComputeProgram& quadDrawArgs() const { return quadDrawArgs_; }

private:
    GraphicsProgram program_;
    GraphicsProgram quadProgram_;  // quad meshes: two triangles a quad, pulled from the storage buffers
    ComputeProgram quadDrawArgs_;  // ... and their draw's arguments (render/quad_draw_args.h)
};

// A colour image of `extent` the host owns and imports (as a window's
// swapchain image would be): the draw's target, written by rays as a storage
// image, copied out by a read-back.
Image createColorTarget(Context& context, VkExtent2D extent, const std::string& what);

// Adds the draw. A quad mesh (faceSize 4, the dual method's) is drawn as two
// triangles a quad, after a pass that makes its draw's arguments.
void addMeshPass(RenderGraph& graph, const MeshRenderer& renderer, const MeshBuffers& mesh,
                 const MeshTargets& targets, const MeshDrawParams& params, const std::string& name = "draw mesh");

} // namespace isoscope
