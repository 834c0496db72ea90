#include "graph/render_graph.h"

#include <algorithm>
#include <optional>

#include "core/context.h"
#include "core/gpu_timer.h"
#include "core/memory.h"
#include "core/vk_check.h"

namespace isoscope {

GraphImage graphImage(const Image& image)
{
    return {image.image, image.view, image.format, {image.extent.width, image.extent.height}};
}

// The transient resources of one compile: per slot one allocation, bound by
// every occupant at offset 0 (their lifetimes do not overlap; the compiler's
// barriers order each occupant after the previous one).
struct RenderGraph::Transients {
    VkDevice device = VK_NULL_HANDLE;
    Allocator* allocator = nullptr;
    std::vector<std::pair<VkDeviceMemory, VkDeviceSize>> memories;
    std::vector<VkBuffer> buffers;
    std::vector<VkImage> images;
    std::vector<VkImageView> views;

    ~Transients()
    {
        for (VkImageView view : views)
            vkDestroyImageView(device, view, nullptr);
        for (VkImage image : images)
            vkDestroyImage(device, image, nullptr);
        for (VkBuffer buffer : buffers)
            vkDestroyBuffer(device, buffer, nullptr);
        for (auto [memory, bytes] : memories)
            allocator->freeShared(memory, bytes);
    }
};

RenderGraph::RenderGraph(Context& context, QueueRole role) : context_(context), role_(role)
{
    desc_.queueFamily = context.queueFamily(role);
}

void RenderGraph::acquireImportedImage(VkImage image, ResourceState arriving)
{
    isCompiled_ = false;
    acquired_.push_back({image, VK_NULL_HANDLE, arriving});
}

void RenderGraph::acquireImportedBuffer(VkBuffer buffer, ResourceState arriving)
{
    isCompiled_ = false;
    acquired_.push_back({VK_NULL_HANDLE, buffer, arriving});
}

RenderGraph::~RenderGraph() = default;

ResourceId RenderGraph::addResource(ResourceDesc desc)
{
    isCompiled_ = false;
    desc_.resources.push_back(std::move(desc));
    buffers_.push_back(VK_NULL_HANDLE);
    images_.push_back({});
    return ResourceId(desc_.resources.size() - 1);
}

ResourceState RenderGraph::followEarlierWork(ResourceState initial) const
{
    if (importsFollowEarlierWork_ && initial.stage == VK_PIPELINE_STAGE_2_NONE) {
        initial.stage = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
        initial.access = VK_ACCESS_2_MEMORY_WRITE_BIT;
    }
    return initial;
}

ResourceId RenderGraph::importBuffer(std::string name, VkBuffer buffer, ResourceState initial,
                                     std::optional<ResourceState> final)
{
    ResourceDesc desc{std::move(name), false, true, followEarlierWork(initial), final.has_value(),
                      final.value_or(ResourceState{})};
    ResourceId id = addResource(std::move(desc));
    buffers_[id] = buffer;
    return id;
}

ResourceId RenderGraph::importImage(std::string name, const GraphImage& image, ResourceState initial,
                                    std::optional<ResourceState> final)
{
    ResourceDesc desc{std::move(name), true, true, followEarlierWork(initial), final.has_value(),
                      final.value_or(ResourceState{})};
    desc.extent = image.extent;
    desc.format = image.format;
    ResourceId id = addResource(std::move(desc));
    images_[id] = image;
    return id;
}

void RenderGraph::setImportedBuffer(ResourceId id, VkBuffer buffer)
{
    if (id >= desc_.resources.size() || !desc_.resources[id].imported || desc_.resources[id].image)
        fail("resource " + std::to_string(id) + " is not an imported buffer (engine bug)");
    buffers_[id] = buffer;
}

void RenderGraph::setImportedImage(ResourceId id, const GraphImage& image)
{
    if (id >= desc_.resources.size() || !desc_.resources[id].imported || !desc_.resources[id].image)
        fail("resource " + std::to_string(id) + " is not an imported image (engine bug)");
    images_[id] = image;
}

ResourceId RenderGraph::createBuffer(std::string name, VkDeviceSize size)
{
    ResourceDesc desc{std::move(name)};
    desc.size = size;
    return addResource(std::move(desc));
}

ResourceId RenderGraph::createImage(std::string name, VkExtent2D extent, VkFormat format)
{
    ResourceDesc desc{std::move(name), true};
    desc.extent = extent;
    desc.format = format;
    return addResource(std::move(desc));
}

void RenderGraph::addPass(std::string name, PassKind kind, std::vector<ResourceUse> uses, Record record,
                          bool sideEffects)
{
    isCompiled_ = false;
    desc_.passes.push_back({std::move(name), kind, std::move(uses), sideEffects});
    records_.push_back(std::move(record));
    conditions_.emplace_back();
}

void RenderGraph::setCondition(std::function<bool()> condition)
{
    if (conditions_.empty())
        fail("setCondition before any pass was added (engine bug)");
    conditions_.back() = std::move(condition);
}

void RenderGraph::addComputePass(std::string name, const ComputeProgram& program, std::vector<ResourceUse> uses,
                                 Record record)
{
    addComputePass(std::move(name), std::vector<const ComputeProgram*>{&program}, std::move(uses), std::move(record));
}

void RenderGraph::addComputePass(std::string name, std::vector<const ComputeProgram*> programs,
                                 std::vector<ResourceUse> uses, Record record)
{
    addPass(std::move(name), PassKind::Compute, std::move(uses), std::move(record));
    for (const ComputeProgram* program : programs)
        desc_.passes.back().shaders.push_back({program->name(), program->bindings()});
}

void RenderGraph::compile()
{
    bool dedicatedTransfer = role_ == QueueRole::Transfer && context_.hasDedicatedTransferQueue();
    if (dedicatedTransfer)
        for (const PassDesc& pass : desc_.passes)
            if (pass.kind != PassKind::Transfer)
                fail("pass '" + pass.name + "' is placed on the transfer queue, which runs transfer passes only "
                     "(engine bug)");
    for (const Acquired& acquired : acquired_) {
        // The import of the handle that the earliest pass uses takes the acquire.
        auto isIt = [&](ResourceId id) {
            const ResourceDesc& resource = desc_.resources[id];
            return resource.imported && (resource.image ? acquired.image && images_[id].image == acquired.image
                                                        : acquired.buffer && buffers_[id] == acquired.buffer);
        };
        std::optional<ResourceId> first;
        for (const PassDesc& pass : desc_.passes) {
            for (const ResourceUse& use : pass.uses)
                if (use.resource < desc_.resources.size() && isIt(use.resource)) {
                    first = use.resource;
                    break;
                }
            if (first)
                break;
        }
        if (!first)
            fail("an acquired resource is not used by any pass of the graph (engine bug)");
        desc_.resources[*first].initialState = acquired.arriving;
    }
    compiled_ = compileGraph(desc_);
    // One scope a pass and one for the whole frame.
    uint32_t scopes = uint32_t(compiled_.passes.size()) + 1;
    // A dedicated transfer queue cannot reset queries in a command buffer:
    // the host does, where it may.
    uint32_t validBits = dedicatedTransfer ? context_.transferTimestampValidBits() : context_.info().timestampValidBits;
    bool timed = validBits != 0 && (!dedicatedTransfer || context_.info().features.hostQueryReset);
    if (timed && scopes > timerScopes_) {
        timer_.reset();
        timer_ = std::make_unique<GpuTimer>(context_, scopes, validBits, dedicatedTransfer);
        timerScopes_ = scopes;
    }
    transients_.reset();
    auto transients = std::make_unique<Transients>();
    transients->device = context_.device();
    transients->allocator = &context_.allocator();
    VkDevice device = context_.device();

    for (uint32_t s = 0; s < compiled_.slots.size(); ++s) {
        const MemorySlot& slot = compiled_.slots[s];
        VkMemoryRequirements total{0, 1, ~0u};
        std::vector<std::pair<ResourceId, VkMemoryRequirements>> occupants;
        for (ResourceId id : slot.occupants) {
            const ResourceDesc& resource = desc_.resources[id];
            const TransientResource& plan = *std::find_if(compiled_.transients.begin(), compiled_.transients.end(),
                                                          [&](const TransientResource& t) { return t.resource == id; });
            VkMemoryRequirements requirements;
            if (resource.image) {
                VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
                info.imageType = VK_IMAGE_TYPE_2D;
                info.format = resource.format;
                info.extent = {resource.extent.width, resource.extent.height, 1};
                info.mipLevels = info.arrayLayers = 1;
                info.samples = VK_SAMPLE_COUNT_1_BIT;
                info.tiling = VK_IMAGE_TILING_OPTIMAL;
                info.usage = plan.imageUsage;
                VkImage image = VK_NULL_HANDLE;
                VK_CHECK(vkCreateImage(device, &info, nullptr, &image));
                transients->images.push_back(image);
                images_[id] = {image, VK_NULL_HANDLE, resource.format, resource.extent};
                vkGetImageMemoryRequirements(device, image, &requirements);
            } else {
                VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
                info.size = resource.size;
                info.usage = plan.bufferUsage;
                VkBuffer buffer = VK_NULL_HANDLE;
                VK_CHECK(vkCreateBuffer(device, &info, nullptr, &buffer));
                transients->buffers.push_back(buffer);
                buffers_[id] = buffer;
                vkGetBufferMemoryRequirements(device, buffer, &requirements);
            }
            total.size = std::max(total.size, requirements.size);
            total.alignment = std::max(total.alignment, requirements.alignment);
            total.memoryTypeBits &= requirements.memoryTypeBits;
            occupants.emplace_back(id, requirements);
        }
        if (total.memoryTypeBits == 0)
            fail("the render graph's transient resources in slot " + std::to_string(s) +
                 " share no memory type on this device (engine bug: give them separate slots)");
        VkDeviceMemory memory =
            context_.allocator().allocateShared(total, "render graph transient memory (slot " + std::to_string(s) + ")");
        transients->memories.emplace_back(memory, total.size);
        for (auto [id, requirements] : occupants) {
            if (desc_.resources[id].image) {
                VK_CHECK(vkBindImageMemory(device, images_[id].image, memory, 0));
                VkImageViewCreateInfo view{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
                view.image = images_[id].image;
                view.viewType = VK_IMAGE_VIEW_TYPE_2D;
                view.format = images_[id].format;
                view.subresourceRange = {VkImageAspectFlags(isDepthFormat(view.format) ? VK_IMAGE_ASPECT_DEPTH_BIT
                                                                                       : VK_IMAGE_ASPECT_COLOR_BIT),
                                         0, 1, 0, 1};
                VK_CHECK(vkCreateImageView(device, &view, nullptr, &images_[id].view));
                transients->views.push_back(images_[id].view);
            } else {
                VK_CHECK(vkBindBufferMemory(device, buffers_[id], memory, 0));
            }
        }
    }
    transients_ = std::move(transients);
    isCompiled_ = true;
}

void RenderGraph::recordBarriers(VkCommandBuffer cmd, const std::vector<Barrier>& barriers) const
{
    if (barriers.empty())
        return;
    std::vector<VkBufferMemoryBarrier2> bufferBarriers;
    std::vector<VkImageMemoryBarrier2> imageBarriers;
    for (const Barrier& b : barriers) {
        if (b.image) {
            const GraphImage& image = images_[b.resource];
            VkImageMemoryBarrier2 barrier{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2};
            barrier.srcStageMask = b.srcStage;
            barrier.srcAccessMask = b.srcAccess;
            barrier.dstStageMask = b.dstStage;
            barrier.dstAccessMask = b.dstAccess;
            barrier.oldLayout = b.oldLayout;
            barrier.newLayout = b.newLayout;
            barrier.srcQueueFamilyIndex = b.srcQueueFamily;
            barrier.dstQueueFamilyIndex = b.dstQueueFamily;
            barrier.image = image.image;
            barrier.subresourceRange = {VkImageAspectFlags(isDepthFormat(image.format) ? VK_IMAGE_ASPECT_DEPTH_BIT
                                                                                       : VK_IMAGE_ASPECT_COLOR_BIT),
                                        0, VK_REMAINING_MIP_LEVELS, 0, VK_REMAINING_ARRAY_LAYERS};
            imageBarriers.push_back(barrier);
        } else {
            VkBufferMemoryBarrier2 barrier{VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER_2};
            barrier.srcStageMask = b.srcStage;
            barrier.srcAccessMask = b.srcAccess;
            barrier.dstStageMask = b.dstStage;
            barrier.dstAccessMask = b.dstAccess;
            barrier.srcQueueFamilyIndex = b.srcQueueFamily;
            barrier.dstQueueFamilyIndex = b.dstQueueFamily;
            barrier.buffer = buffers_[b.resource];
            barrier.size = VK_WHOLE_SIZE;
            bufferBarriers.push_back(barrier);
        }
    }
    VkDependencyInfo dependency{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
    dependency.bufferMemoryBarrierCount = uint32_t(bufferBarriers.size());
    dependency.pBufferMemoryBarriers = bufferBarriers.data();
    dependency.imageMemoryBarrierCount = uint32_t(imageBarriers.size());
    dependency.pImageMemoryBarriers = imageBarriers.data();
    vkCmdPipelineBarrier2(cmd, &dependency);
}

void RenderGraph::record(VkCommandBuffer cmd)
{
    if (!isCompiled_)
        fail("the render graph was changed after compile() (or never compiled): call compile() before recording");
    for (size_t id = 0; id < desc_.resources.size(); ++id)
        if (desc_.resources[id].imported && !buffers_[id] && !images_[id].image)
            fail("imported resource '" + desc_.resources[id].name + "' has no handle (engine bug)");
    uint32_t frame = 0;
    if (timer_) {
        timer_->reset(cmd);
        frame = timer_->begin(cmd, "frame");
        timingsRead_ = false;
    }
    // Consecutive passes of one name (the levels of a scan or a pyramid) are
    // timed as one scope, their barriers inside it: timestamps between every
    // level cost more than the short passes they would time.
    std::optional<uint32_t> scope;
    const std::string* scopeName = nullptr;
    for (const CompiledPass& pass : compiled_.passes) {
        const std::string& name = desc_.passes[pass.pass].name;
        bool runs = !conditions_[pass.pass] || conditions_[pass.pass]();
        if (scope && (!runs || name != *scopeName)) {
            timer_->end(cmd, *scope);
            scope.reset();
        }
        recordBarriers(cmd, pass.barriers);
        if (!runs)
            continue;
        if (timer_ && !scope) {
            scope = timer_->begin(cmd, name);
            scopeName = &name;
        }
        records_[pass.pass](cmd, *this);
    }
    if (scope)
        timer_->end(cmd, *scope);
    if (timer_)
        timer_->end(cmd, frame);
    recordBarriers(cmd, compiled_.finalBarriers);
}

void RenderGraph::execute()
{
    if (context_.queueFamily(role_) != context_.queueFamily())
        fail("execute() submits to the main queue; a graph placed on the transfer queue goes through a GraphQueue "
             "(engine bug)");
    context_.submitAndWait([&](VkCommandBuffer cmd) { record(cmd); });
}

void RenderGraph::readTimings()
{
    if (!timer_ || timingsRead_)
        return;
    std::vector<std::pair<std::string, double>> scopes = timer_->read();
    frameMs_ = scopes.empty() ? 0.0 : scopes.front().second;
    timings_.assign(scopes.begin() + (scopes.empty() ? 0 : 1), scopes.end());
    timingsRead_ = true;
}

std::vector<std::pair<std::string, double>> RenderGraph::passTimings()
{
    readTimings();
    return timings_;
}

double RenderGraph::frameMs()
{
    readTimings();
    return frameMs_;
}

std::pair<double, double> RenderGraph::frameSpan()
{
    readTimings();
    return timer_ ? timer_->firstScopeSpan() : std::pair<double, double>{0.0, 0.0};
}

uint64_t RenderGraph::transientBytes() const
{
    uint64_t bytes = 0;
    if (transients_)
        for (auto [memory, size] : transients_->memories)
            bytes += size;
    return bytes;
}

VkBuffer RenderGraph::buffer(ResourceId id) const
{
    if (id >= buffers_.size() || desc_.resources[id].image)
        fail("resource " + std::to_string(id) + " is not a buffer of this graph (engine bug)");
    return buffers_[id];
}

const GraphImage& RenderGraph::image(ResourceId id) const
{
    if (id >= images_.size() || !desc_.resources[id].image)
        fail("resource " + std::to_string(id) + " is not an image of this graph (engine bug)");
    return images_[id];
}

} // namespace isoscope
