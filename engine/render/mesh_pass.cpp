#include "render/mesh_pass.h"

#include <cstddef>

#include "core/context.h"
#include "core/error.h"
#include "mesh/gpu_mesh.h"
#include "render/quad_draw_args.h"

namespace isoscope {

namespace {

// shaders/common/mesh_draw_params.glsl
struct MeshPushConstants {
    glm::mat4 viewProjection;
    glm::vec4 eye;
    glm::vec4 frontColor;
    glm::vec4 backColor;
};
static_assert(sizeof(MeshPushConstants) == 112);

GraphicsState meshState()
{
    GraphicsState state;
    state.colorFormat = MeshRenderer::kColorFormat;
    state.depthFormat = MeshRenderer::kDepthFormat;
    state.vertices.stride = sizeof(GpuMeshVertex);
    state.vertices.attributes = {
        {0, 0, VK_FORMAT_R32G32B32_SFLOAT, uint32_t(offsetof(GpuMeshVertex, position))},
        {1, 0, VK_FORMAT_R32G32B32_SFLOAT, uint32_t(offsetof(GpuMeshVertex, normal))},
    };
    return state;
}

// Quads pull their vertices from the storage buffers: no vertex input.
GraphicsState quadState()
{
    GraphicsState state = meshState();
    state.vertices = {};
    return state;
}

MeshPushConstants pushConstants(const MeshDrawParams& params, VkExtent2D extent)
{
    const OrbitCamera& camera = params.camera;
    MeshPushConstants constants;
    constants.viewProjection = viewProjection(camera, float(extent.width) / float(extent.height));
    constants.eye = camera.orthographic ? glm::vec4(cameraBackward(camera), 0.0f)
                                        : glm::vec4(cameraPosition(camera), 1.0f);
    constants.frontColor = glm::vec4(params.frontColor, 1.0f);
    constants.backColor = glm::vec4(params.backColor, 1.0f);
    return constants;
}

} // namespace

MeshRenderer::MeshRenderer(Context& context)
    : program_(context, loadShader("render/draw_mesh"), loadShader("render/shade_mesh"), meshState()),
      quadProgram_(context, loadShader("render/draw_quads"), loadShader("render/shade_mesh"), quadState()),
      quadDrawArgs_(context, loadShader("render/quad_draw_args"))
{
}

void addMeshPass(RenderGraph& graph, const MeshRenderer& renderer, const MeshBuffers& mesh,
                 const MeshTargets& targets, const MeshDrawParams& params, const std::string& name)
{
    if (mesh.faceSize != 3 && mesh.faceSize != 4)
        fail("the raster pass draws triangles and quads, but this mesh has " + std::to_string(mesh.faceSize) +
             "-sided faces (engine bug)");
    bool quads = mesh.faceSize == 4;
    const GraphicsProgram& program = quads ? renderer.quadProgram() : renderer.program();
    ResourceId quadArgs = quads ? addQuadDrawArgsPass(graph, renderer.quadDrawArgs(), mesh.counters, name + " quad args")
                                : kNoResource;
    std::vector<ResourceUse> uses = {{targets.color, Use::ColorAttachment}, {targets.depth, Use::DepthAttachment}};
    if (quads)
        uses.insert(uses.end(), {{quadArgs, Use::IndirectArgs},
                                 {mesh.indices, Use::StorageRead, 0},
                                 {mesh.vertices, Use::StorageRead, 1}});
    else
        uses.insert(uses.end(), {{mesh.counters, Use::IndirectArgs},
                                 {mesh.indices, Use::IndexBuffer},
                                 {mesh.vertices, Use::VertexBuffer}});
    graph.addPass(name, PassKind::Raster, uses, [=, &program, &params](VkCommandBuffer cmd, const RenderGraph& g) {
        const GraphImage& color = g.image(targets.color);
        const GraphImage& depth = g.image(targets.depth);
        VkAttachmentLoadOp load = params.clear ? VK_ATTACHMENT_LOAD_OP_CLEAR : VK_ATTACHMENT_LOAD_OP_LOAD;
        VkRenderingAttachmentInfo colorAttachment{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
        colorAttachment.imageView = color.view;
        colorAttachment.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
        colorAttachment.loadOp = load;
        colorAttachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
        colorAttachment.clearValue.color = {{params.clearColor.r, params.clearColor.g, params.clearColor.b,
                                             params.clearColor.a}};
        VkRenderingAttachmentInfo depthAttachment{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
        depthAttachment.imageView = depth.view;
        depthAttachment.imageLayout = VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL;
        depthAttachment.loadOp = load;
        depthAttachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE; // later passes composite against it
        depthAttachment.clearValue.depthStencil = {1.0f, 0};
        VkRenderingInfo rendering{VK_STRUCTURE_TYPE_RENDERING_INFO};
        rendering.renderArea = {{0, 0}, color.extent};
        rendering.layerCount = 1;
        rendering.colorAttachmentCount = 1;
        rendering.pColorAttachments = &colorAttachment;
        rendering.pDepthAttachment = &depthAttachment;
        vkCmdBeginRendering(cmd, &rendering);
        MeshPushConstants constants = pushConstants(params, color.extent);
        if (quads) {
            program.bind(cmd, color.extent, {g.storage(mesh.indices), g.storage(mesh.vertices)}, &constants,
                         sizeof(constants));
            vkCmdDrawIndirect(cmd, g.buffer(quadArgs), 0, 1, 0);
            vkCmdEndRendering(cmd);
            return;
        }
        program.bind(cmd, color.extent, {}, &constants, sizeof(constants));
        VkDeviceSize offset = 0;
        VkBuffer vertices = g.buffer(mesh.vertices);
        vkCmdBindVertexBuffers(cmd, 0, 1, &vertices, &offset);
        vkCmdBindIndexBuffer(cmd, g.buffer(mesh.indices), 0, VK_INDEX_TYPE_UINT32);
        // Offset 0 of the counters block is the VkDrawIndexedIndirectCommand (gpu_mesh.h).
        vkCmdDrawIndexedIndirect(cmd, g.buffer(mesh.counters), 0, 1, 0);
        vkCmdEndRendering(cmd);
    });
}

Image createColorTarget(Context& context, VkExtent2D extent, const std::string& what)
{
    return context.allocator().createImage(VK_IMAGE_TYPE_2D, {extent.width, extent.height, 1},
                                           MeshRenderer::kColorFormat,
                                           VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_STORAGE_BIT |
                                               VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                                           what);
}

} // namespace isoscope
