#pragma once
// The render graph compiler: a pure function from passes and their declared
// uses to the order they run in, the synchronization2 barriers before each
// one, and the memory plan of the transient resources. No Vulkan calls, so
// tests check the exact barriers on the CPU.
//
// Rules (each one a hazard the Vulkan memory model names):
//   read after write   barrier from the writer's stage/access to the reader's;
//                      a later reader whose stage and access already saw the
//                      write needs none (read after read never does)
//   write after read   execution dependency only: from the readers' stages,
//                      no source access, to the writer's stage/access
//   write after write  from the first writer's stage/access to the second's
//   layout change      an image barrier with the old and new layout, from
//                      whoever touched the image last
// A pass's uses of one resource merge into one barrier (a buffer that is both
// index buffer and vertex buffer of a draw gets one barrier with both stages).
//
// Culling: a pass whose writes reach no imported resource and no kept pass,
// and that has no side effects, is dropped. Order: declaration order of the
// kept passes, which already respects every dependency since a pass can only
// read what was declared before it.
//
// Ownership: an import whose initial state names another queue family
// (graph_desc.h) is acquired by a barrier before its first use (source
// scope empty, destination that use's stages and accesses; then whatever
// layout change the use needs); a final state naming another family is a
// release barrier at the end (source: the resource's last uses, destination
// empty). The semaphore between the two submissions is the caller's
// (graph/graph_queue.h).
//
// Aliasing: transient resources whose lifetimes (first to last use among the
// kept passes) do not overlap share one memory slot, buffers with buffers and
// images with images (no bufferImageGranularity concerns). A resource that
// takes over a slot starts with a barrier from the previous occupant's last
// use (its writes and reads must finish before the memory is reused).
#include <cstdint>
#include <vector>

#include "graph/graph_desc.h"

namespace isoscope {

// A VkBufferMemoryBarrier2 / VkImageMemoryBarrier2 as plain data, whole
// resource; the runtime fills in the handles.
struct Barrier {
    ResourceId resource = kNoResource;
    bool image = false;
    VkPipelineStageFlags2 srcStage = VK_PIPELINE_STAGE_2_NONE;
    VkAccessFlags2 srcAccess = VK_ACCESS_2_NONE;
    VkPipelineStageFlags2 dstStage = VK_PIPELINE_STAGE_2_NONE;
    VkAccessFlags2 dstAccess = VK_ACCESS_2_NONE;
    VkImageLayout oldLayout = VK_IMAGE_LAYOUT_UNDEFINED; // images only
    VkImageLayout newLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    // An ownership release (srcQueueFamily the graph's) or acquire
    // (dstQueueFamily the graph's); both IGNORED for every other barrier.
    uint32_t srcQueueFamily = VK_QUEUE_FAMILY_IGNORED;
    uint32_t dstQueueFamily = VK_QUEUE_FAMILY_IGNORED;

    bool operator==(const Barrier&) const = default;
};

struct CompiledPass {
    uint32_t pass = 0;             // index into GraphDesc::passes
    std::vector<Barrier> barriers; // recorded before the pass
};

struct TransientResource {
    ResourceId resource = kNoResource;
    uint32_t slot = 0;          // memory slot; resources sharing a slot alias
    uint32_t firstUse = 0;      // positions in CompiledGraph::passes
    uint32_t lastUse = 0;
    VkBufferUsageFlags bufferUsage = 0; // union over its uses
    VkImageUsageFlags imageUsage = 0;
};

struct MemorySlot {
    bool image = false;
    VkDeviceSize bytes = 0; // estimate: the largest occupant (the runtime uses the driver's requirements)
    std::vector<ResourceId> occupants; // in order of use
};

struct CompiledGraph {
    std::vector<CompiledPass> passes;      // in execution order, culled passes left out
    std::vector<uint32_t> culled;          // passes dropped, by index
    std::vector<Barrier> finalBarriers;    // after the last pass: imported resources to their final state
    std::vector<TransientResource> transients; // used transient resources, in order of first use
    std::vector<MemorySlot> slots;
};

// Throws Error for a use of an unknown resource, a buffer use of an image (or
// the reverse), a transient resource read before anything wrote it, a
// transient resource without a size, or a pass whose uses disagree with its
// program's reflected bindings (checkPassBindings).
CompiledGraph compileGraph(const GraphDesc& desc);

// The declared uses of a pass with a program against the program's bindings,
// as reflected from its SPIR-V: throws Error, naming the pass, the shader and
// the binding, where a binding has no use declared, a binding the shader
// writes is declared read-only, a use names a binding the shader lacks, or
// two uses name one binding. Passes without a program are not checked.
void checkPassBindings(const GraphDesc& desc, const PassDesc& pass);

// The bytes the compiler assumes for a transient resource when it plans the
// slots (buffer size; image width × height × texel bytes).
VkDeviceSize estimatedBytes(const ResourceDesc& resource);

} // namespace isoscope
