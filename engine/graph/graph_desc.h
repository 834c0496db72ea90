#pragma once
// What a render graph is made of, as plain data: resources, and passes that
// declare how they use them. compileGraph (compile_graph.h) turns this into
// the pass order, the barriers and the transient memory plan without touching
// a GPU, so every synchronization decision can be unit-tested on the CPU.
//
// As in Granite's and Filament's graphs, a pass never writes a barrier: it
// says "I read this buffer as indirect arguments", "I render into this image",
// and the graph derives stages, access masks and layouts from that.
#include <cstdint>
#include <string>
#include <vector>

#include <volk.h>

#include "core/shader.h"

namespace isoscope {

enum class PassKind { Compute, Raster, Transfer };

// How a pass touches a resource. Shader uses take their stages from the pass
// kind: compute shader in a compute pass, vertex and fragment shaders in a
// raster pass.
enum class Use {
    // buffers
    StorageRead,      // storage buffer, read only
    StorageWrite,     // storage buffer, written (and possibly read: atomics, counters)
    UniformRead,      // uniform buffer
    IndirectArgs,     // vkCmdDraw*Indirect / vkCmdDispatchIndirect arguments
    IndexBuffer,
    VertexBuffer,
    // images
    Sampled,          // sampled in shaders, SHADER_READ_ONLY_OPTIMAL
    StorageImageRead, // GENERAL
    StorageImageWrite,
    ColorAttachment,  // dynamic rendering colour target (loaded or cleared, written)
    DepthAttachment,  // depth test and write
    // both
    TransferSrc,
    TransferDst,
};

using ResourceId = uint32_t;
constexpr ResourceId kNoResource = UINT32_MAX;

// Where a resource stands: the last stage and access that wrote it (made
// available, not yet visible to anyone) and, for images, the layout.
//
// Queue-family ownership (a resource crossing from one queue family to
// another, exclusive sharing): `queueFamily` names the family on the other
// side. As an import's initial state: the family that released it to this
// graph (the graph acquires it at its first use, in a barrier naming the
// same layouts as the release: `handoffFrom` to `layout`). As a final
// state: the family the graph releases it to, in a barrier from the layout
// the graph leaves it in to `layout` (the stage and access then are the
// acquiring graph's business). Where it is VK_QUEUE_FAMILY_IGNORED, or the
// graph's own family (one queue serves both), nothing changes hands and
// the state is an ordinary one.
struct ResourceState {
    VkPipelineStageFlags2 stage = VK_PIPELINE_STAGE_2_NONE;
    VkAccessFlags2 access = VK_ACCESS_2_NONE;
    VkImageLayout layout = VK_IMAGE_LAYOUT_UNDEFINED;
    uint32_t queueFamily = VK_QUEUE_FAMILY_IGNORED;
    VkImageLayout handoffFrom = VK_IMAGE_LAYOUT_UNDEFINED; // acquired images: the release's old layout
};

struct ResourceDesc {
    std::string name;
    bool image = false;
    // Imported resources belong to the host (a volume, a mesh, a swapchain
    // image): the graph neither creates nor aliases them, and takes their
    // state at the start and, where `hasFinalState`, leaves them in
    // `finalState` at the end (e.g. TRANSFER_SRC_OPTIMAL for a read-back,
    // PRESENT_SRC_KHR for a swapchain image).
    bool imported = false;
    ResourceState initialState;   // imported only; transient resources start undefined
    bool hasFinalState = false;
    ResourceState finalState;
    // Transient resources: what the graph creates.
    VkDeviceSize size = 0;                 // buffers
    VkExtent2D extent{0, 0};               // images (2D)
    VkFormat format = VK_FORMAT_UNDEFINED; // images
};

// Binding: the descriptor binding of the pass's program the resource is
// bound to, or kNoBinding for uses outside descriptors (indirect arguments,
// attachments, vertex and index buffers, copies).
constexpr int32_t kNoBinding = -1;

struct ResourceUse {
    ResourceId resource = kNoResource;
    Use use = Use::StorageRead;
    int32_t binding = kNoBinding;
};

struct PassShader {
    std::string name;
    std::vector<ShaderBinding> bindings;
};

struct PassDesc {
    std::string name;
    PassKind kind = PassKind::Compute;
    std::vector<ResourceUse> uses;
    // A pass with side effects outside the graph's resources (a host read-back
    // through a mapped buffer, say) is never culled.
    bool sideEffects = false;
    // The programs the pass may dispatch (one, or variants it picks from
    // when it records), where it declared them: their reflected bindings,
    // which compileGraph checks the uses against (every binding declared
    // once, nothing a shader writes declared read-only).
    std::vector<PassShader> shaders;
};

struct GraphDesc {
    std::vector<ResourceDesc> resources;
    std::vector<PassDesc> passes; // in declaration order; a pass reads what earlier ones wrote
    // The queue family every pass of the graph runs on (the graph is one
    // submission to one queue): what ownership transfers are measured
    // against. VK_QUEUE_FAMILY_IGNORED: no transfers.
    uint32_t queueFamily = VK_QUEUE_FAMILY_IGNORED;
};

// The stage, access and layout a use implies in a pass of `kind`; the layout
// is UNDEFINED for buffer uses. Throws Error where the combination makes no
// sense (a vertex buffer in a compute pass).
ResourceState useState(Use use, PassKind kind);
bool isImageUse(Use use);
// Whether a use lets the pass write the resource.
bool isWriteUse(Use use);
const char* useName(Use use);
bool isDepthFormat(VkFormat format);
// Usage flags a transient resource needs for its declared uses.
VkBufferUsageFlags bufferUsageFor(Use use);
VkImageUsageFlags imageUsageFor(Use use);

} // namespace isoscope
