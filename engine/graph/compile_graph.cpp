#include "graph/compile_graph.h"

#include <algorithm>
#include <map>
#include <optional>

#include "core/error.h"

namespace isoscope {

namespace {

constexpr VkAccessFlags2 kWriteAccess =
    VK_ACCESS_2_SHADER_WRITE_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT |
    VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT | VK_ACCESS_2_HOST_WRITE_BIT |
    VK_ACCESS_2_MEMORY_WRITE_BIT;

// All the uses one pass makes of one resource, merged.
struct MergedUse {
    ResourceId resource = kNoResource;
    ResourceState state;
    bool writes() const { return (state.access & kWriteAccess) != 0; }
};

// What the barrier sweep knows about a resource: the last write (or layout
// transition) and the readers since then that already see it.
struct Track {
    VkPipelineStageFlags2 writeStage = VK_PIPELINE_STAGE_2_NONE;
    VkAccessFlags2 writeAccess = VK_ACCESS_2_NONE;
    VkPipelineStageFlags2 readStage = VK_PIPELINE_STAGE_2_NONE;
    VkAccessFlags2 readAccess = VK_ACCESS_2_NONE;
    VkImageLayout layout = VK_IMAGE_LAYOUT_UNDEFINED;
};

std::vector<MergedUse> mergeUses(const GraphDesc& desc, const PassDesc& pass)
{
    std::vector<MergedUse> merged;
    for (const ResourceUse& use : pass.uses) {
        if (use.resource >= desc.resources.size())
            fail("pass '" + pass.name + "' uses resource " + std::to_string(use.resource) + " but the graph has " +
                 std::to_string(desc.resources.size()) + " (engine bug)");
        const ResourceDesc& resource = desc.resources[use.resource];
        bool transfer = use.use == Use::TransferSrc || use.use == Use::TransferDst;
        if (!transfer && isImageUse(use.use) != resource.image)
            fail("pass '" + pass.name + "' uses " + (resource.image ? "image" : "buffer") + " '" + resource.name +
                 "' as " + (resource.image ? "a buffer" : "an image") + " (engine bug)");
        ResourceState state = useState(use.use, pass.kind);
        if (!resource.image)
            state.layout = VK_IMAGE_LAYOUT_UNDEFINED;
        auto it = std::find_if(merged.begin(), merged.end(),
                               [&](const MergedUse& m) { return m.resource == use.resource; });
        if (it == merged.end()) {
            merged.push_back({use.resource, state});
            continue;
        }
        if (it->state.layout != state.layout)
            fail("pass '" + pass.name + "' uses image '" + resource.name +
                 "' in two layouts at once; split the pass (engine bug)");
        it->state.stage |= state.stage;
        it->state.access |= state.access;
    }
    return merged;
}

// Passes kept, walking back from what leaves the graph: imported resources and
// passes with side effects.
std::vector<bool> findLivePasses(const GraphDesc& desc, const std::vector<std::vector<MergedUse>>& uses)
{
    std::vector<bool> live(desc.passes.size(), false);
    std::vector<bool> needed(desc.resources.size(), false);
    for (size_t p = desc.passes.size(); p-- > 0;) {
        bool keep = desc.passes[p].sideEffects;
        for (const MergedUse& use : uses[p])
            if (use.writes() && (desc.resources[use.resource].imported || needed[use.resource]))
                keep = true;
        if (!keep)
            continue;
        live[p] = true;
        for (const MergedUse& use : uses[p])
            needed[use.resource] = true;
    }
    return live;
}

void planTransients(const GraphDesc& desc, const std::vector<std::vector<MergedUse>>& uses, CompiledGraph& graph)
{
    std::map<ResourceId, size_t> index;
    for (uint32_t position = 0; position < graph.passes.size(); ++position) {
        for (const MergedUse& use : uses[graph.passes[position].pass]) {
            const ResourceDesc& resource = desc.resources[use.resource];
            if (resource.imported)
                continue;
            auto [it, first] = index.try_emplace(use.resource, graph.transients.size());
            if (first) {
                if (!use.writes())
                    fail("pass '" + desc.passes[graph.passes[position].pass].name + "' reads transient " +
                         std::string(resource.image ? "image" : "buffer") + " '" + resource.name +
                         "' before any pass writes it (engine bug)");
                if (estimatedBytes(resource) == 0)
                    fail("transient resource '" + resource.name + "' has no size (engine bug)");
                graph.transients.push_back({use.resource, 0, position, position});
            }
            TransientResource& transient = graph.transients[it->second];
            transient.lastUse = position;
            for (const ResourceUse& declared : desc.passes[graph.passes[position].pass].uses)
                if (declared.resource == use.resource) {
                    transient.bufferUsage |= resource.image ? 0 : bufferUsageFor(declared.use);
                    transient.imageUsage |= resource.image ? imageUsageFor(declared.use) : 0;
                }
        }
    }
    // First fit over slots of the same kind whose last occupant is done.
    for (TransientResource& transient : graph.transients) {
        const ResourceDesc& resource = desc.resources[transient.resource];
        std::optional<uint32_t> chosen;
        for (uint32_t s = 0; s < graph.slots.size() && !chosen; ++s) {
            const MemorySlot& slot = graph.slots[s];
            if (slot.image != resource.image)
                continue;
            ResourceId last = slot.occupants.back();
            auto lastTransient = std::find_if(graph.transients.begin(), graph.transients.end(),
                                              [&](const TransientResource& t) { return t.resource == last; });
            if (lastTransient->lastUse < transient.firstUse)
                chosen = s;
        }
        if (!chosen) {
            chosen = uint32_t(graph.slots.size());
            graph.slots.push_back({resource.image, 0, {}});
        }
        transient.slot = *chosen;
        graph.slots[*chosen].bytes = std::max(graph.slots[*chosen].bytes, estimatedBytes(resource));
        graph.slots[*chosen].occupants.push_back(transient.resource);
    }
}

// The state a resource is in before its first use: the host's for imported
// ones; for transient ones, undefined, after the previous occupant of its slot.
Track startingTrack(const GraphDesc& desc, const CompiledGraph& graph, const std::vector<Track>& tracks,
                    ResourceId id)
{
    const ResourceDesc& resource = desc.resources[id];
    if (resource.imported)
        return {resource.initialState.stage, resource.initialState.access, 0, 0, resource.initialState.layout};
    Track track;
    for (const MemorySlot& slot : graph.slots) {
        auto it = std::find(slot.occupants.begin(), slot.occupants.end(), id);
        if (it == slot.occupants.end() || it == slot.occupants.begin())
            continue;
        const Track& previous = tracks[*(it - 1)];
        track.writeStage = previous.writeStage | previous.readStage;
        track.writeAccess = previous.writeAccess;
    }
    return track;
}

// The barrier (if any) before `use`, and the resource's state after it.
std::optional<Barrier> transition(Track& track, const MergedUse& use, bool image)
{
    ResourceState to = use.state;
    // GENERAL serves sampling too: an image kept in GENERAL (a volume that
    // passes also store to) is sampled there instead of moved out and back.
    if (image && to.layout == VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL && track.layout == VK_IMAGE_LAYOUT_GENERAL)
        to.layout = VK_IMAGE_LAYOUT_GENERAL;
    Barrier barrier{use.resource, image, 0, 0, to.stage, to.access, track.layout, to.layout};
    std::optional<Barrier> result;
    if (image && to.layout != track.layout) {
        barrier.srcStage = track.writeStage | track.readStage;
        barrier.srcAccess = track.writeAccess;
        result = barrier;
    } else if (use.writes()) {
        if (track.readStage) { // write after read: the readers must be done
            barrier.srcStage = track.readStage;
            result = barrier;
        } else if (track.writeStage) { // write after write
            barrier.srcStage = track.writeStage;
            barrier.srcAccess = track.writeAccess;
            result = barrier;
        }
    } else if (track.writeStage && ((to.stage & ~track.readStage) || (to.access & ~track.readAccess))) {
        barrier.srcStage = track.writeStage; // read after write, by a stage that has not seen it
        barrier.srcAccess = track.writeAccess;
        result = barrier;
    }

    if (use.writes()) {
        track = {to.stage, to.access & kWriteAccess, VK_PIPELINE_STAGE_2_NONE, VK_ACCESS_2_NONE, track.layout};
    } else if (image && to.layout != track.layout) {
        // A read-only layout transition: the transition is the last write,
        // and this reader already sees it.
        track = {to.stage, VK_ACCESS_2_NONE, to.stage, to.access, track.layout};
    } else {
        track.readStage |= to.stage;
        track.readAccess |= to.access;
    }
    if (image)
        track.layout = to.layout;
    return result;
}

// Whether a state's queue family is another than the graph's (ownership changes hands).
bool crossesFamilies(const GraphDesc& desc, uint32_t family)
{
    return family != VK_QUEUE_FAMILY_IGNORED && desc.queueFamily != VK_QUEUE_FAMILY_IGNORED &&
           family != desc.queueFamily;
}

// The acquire of an import released by another family, before its first
// use: visible to that use's stages and accesses; `track` then stands where
// the acquire left it (a further layout change, if the use needs one, is
// ordered after it).
Barrier acquire(const GraphDesc& desc, const ResourceDesc& resource, const MergedUse& use, Track& track)
{
    const ResourceState& from = resource.initialState;
    VkImageLayout oldLayout = from.handoffFrom != VK_IMAGE_LAYOUT_UNDEFINED ? from.handoffFrom : from.layout;
    Barrier barrier{use.resource, resource.image, VK_PIPELINE_STAGE_2_NONE, VK_ACCESS_2_NONE, use.state.stage,
                    use.state.access, resource.image ? oldLayout : VK_IMAGE_LAYOUT_UNDEFINED,
                    resource.image ? from.layout : VK_IMAGE_LAYOUT_UNDEFINED};
    barrier.srcQueueFamily = from.queueFamily;
    barrier.dstQueueFamily = desc.queueFamily;
    VkImageLayout wanted = use.state.layout;
    if (resource.image && wanted == VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL && from.layout == VK_IMAGE_LAYOUT_GENERAL)
        wanted = VK_IMAGE_LAYOUT_GENERAL;
    if (resource.image && wanted != from.layout)
        track = {use.state.stage, VK_ACCESS_2_NONE, VK_PIPELINE_STAGE_2_NONE, VK_ACCESS_2_NONE, from.layout};
    else
        track = {VK_PIPELINE_STAGE_2_NONE, VK_ACCESS_2_NONE, VK_PIPELINE_STAGE_2_NONE, VK_ACCESS_2_NONE,
                 resource.image ? from.layout : VK_IMAGE_LAYOUT_UNDEFINED};
    return barrier;
}

bool descriptorFits(VkDescriptorType type, Use use)
{
    switch (type) {
    case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER: return use == Use::StorageRead || use == Use::StorageWrite;
    case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER: return use == Use::UniformRead;
    case VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER: return use == Use::Sampled;
    case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE: return use == Use::StorageImageRead || use == Use::StorageImageWrite;
    default: return true;
    }
}

const char* descriptorName(VkDescriptorType type)
{
    switch (type) {
    case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER: return "storage buffer";
    case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER: return "uniform buffer";
    case VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER: return "sampled image";
    case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE: return "storage image";
    default: return "descriptor";
    }
}

std::string bindingText(const ShaderBinding& binding)
{
    return "binding " + std::to_string(binding.binding) + (binding.name.empty() ? "" : " ('" + binding.name + "')");
}

} // namespace

void checkPassBindings(const GraphDesc& desc, const PassDesc& pass)
{
    if (pass.shaders.empty())
        return;
    std::map<int32_t, const ResourceUse*> byBinding;
    for (const ResourceUse& use : pass.uses) {
        if (use.binding == kNoBinding)
            continue;
        if (!byBinding.emplace(use.binding, &use).second)
            fail("pass '" + pass.name + "' declares binding " + std::to_string(use.binding) + " twice (engine bug)");
        bool known = std::any_of(pass.shaders.begin(), pass.shaders.end(), [&](const PassShader& shader) {
            return use.binding >= 0 && size_t(use.binding) < shader.bindings.size();
        });
        if (!known)
            fail("pass '" + pass.name + "' declares binding " + std::to_string(use.binding) + " but its shader " +
                 pass.shaders.front().name + " has " + std::to_string(pass.shaders.front().bindings.size()) +
                 " bindings (engine bug)");
    }
    for (const PassShader& shader : pass.shaders) {
        auto where = [&] { return "pass '" + pass.name + "' (shader " + shader.name + "): "; };
        for (const ShaderBinding& binding : shader.bindings) {
            auto it = byBinding.find(int32_t(binding.binding));
            if (it == byBinding.end())
                fail(where() + bindingText(binding) +
                     " is not declared: say which resource it binds and how (engine bug)");
            const ResourceUse& use = *it->second;
            if (binding.writable && !isWriteUse(use.use))
                fail(where() + "the shader writes " + bindingText(binding) + " but the pass declares '" +
                     (use.resource < desc.resources.size() ? desc.resources[use.resource].name : std::string("?")) +
                     "' there as " + useName(use.use) +
                     " (engine bug: declare a write, or make the binding readonly)");
            if (!descriptorFits(binding.type, use.use))
                fail(where() + bindingText(binding) + " is a " + descriptorName(binding.type) +
                     " but the pass declares it as " + useName(use.use) + " (engine bug)");
        }
    }
}

VkDeviceSize estimatedBytes(const ResourceDesc& resource)
{
    if (!resource.image)
        return resource.size;
    VkDeviceSize texel = 4;
    switch (resource.format) {
    case VK_FORMAT_R16G16B16A16_SFLOAT: texel = 8; break;
    case VK_FORMAT_R32G32B32A32_SFLOAT: texel = 16; break;
    case VK_FORMAT_R8_UNORM: texel = 1; break;
    case VK_FORMAT_D16_UNORM: texel = 2; break;
    default: break;
    }
    return VkDeviceSize(resource.extent.width) * resource.extent.height * texel;
}

CompiledGraph compileGraph(const GraphDesc& desc)
{
    std::vector<std::vector<MergedUse>> uses;
    for (const PassDesc& pass : desc.passes) {
        checkPassBindings(desc, pass);
        uses.push_back(mergeUses(desc, pass));
    }

    CompiledGraph graph;
    std::vector<bool> live = findLivePasses(desc, uses);
    for (uint32_t p = 0; p < desc.passes.size(); ++p) {
        if (live[p])
            graph.passes.push_back({p, {}});
        else
            graph.culled.push_back(p);
    }
    planTransients(desc, uses, graph);

    std::vector<Track> tracks(desc.resources.size());
    std::vector<bool> started(desc.resources.size(), false);
    for (CompiledPass& pass : graph.passes) {
        for (const MergedUse& use : uses[pass.pass]) {
            const ResourceDesc& resource = desc.resources[use.resource];
            if (!started[use.resource]) {
                tracks[use.resource] = startingTrack(desc, graph, tracks, use.resource);
                started[use.resource] = true;
                if (resource.imported && crossesFamilies(desc, resource.initialState.queueFamily))
                    pass.barriers.push_back(acquire(desc, resource, use, tracks[use.resource]));
            }
            if (auto barrier = transition(tracks[use.resource], use, resource.image))
                pass.barriers.push_back(*barrier);
        }
    }

    for (ResourceId id = 0; id < desc.resources.size(); ++id) {
        const ResourceDesc& resource = desc.resources[id];
        if (!resource.imported || !resource.hasFinalState)
            continue;
        Track track = started[id] ? tracks[id] : startingTrack(desc, graph, tracks, id);
        const ResourceState& to = resource.finalState;
        if (crossesFamilies(desc, to.queueFamily)) {
            // Release: the last uses' writes made available, the layout
            // changed once (the acquiring barrier names the same pair).
            VkImageLayout layout = resource.image ? track.layout : VK_IMAGE_LAYOUT_UNDEFINED;
            Barrier release{id, resource.image, track.writeStage | track.readStage, track.writeAccess,
                            VK_PIPELINE_STAGE_2_NONE, VK_ACCESS_2_NONE, layout,
                            resource.image ? to.layout : VK_IMAGE_LAYOUT_UNDEFINED};
            release.srcQueueFamily = desc.queueFamily;
            release.dstQueueFamily = to.queueFamily;
            graph.finalBarriers.push_back(release);
            continue;
        }
        bool layoutChange = resource.image && to.layout != track.layout;
        bool touched = (track.writeStage | track.readStage) != VK_PIPELINE_STAGE_2_NONE;
        if (!layoutChange && !(touched && to.stage != VK_PIPELINE_STAGE_2_NONE))
            continue;
        graph.finalBarriers.push_back({id, resource.image, track.writeStage | track.readStage, track.writeAccess,
                                       to.stage, to.access, resource.image ? track.layout : VK_IMAGE_LAYOUT_UNDEFINED,
                                       resource.image ? to.layout : VK_IMAGE_LAYOUT_UNDEFINED});
    }
    return graph;
}

} // namespace isoscope
