#include "extract/stream/slab_method.h"

#include "core/context.h"
#include "core/error.h"

namespace isoscope {

SlabMethod::SlabMethod(const Context& context, std::string name, const Volume& grid, uint32_t texelBytes,
                       ExtractOptions options)
    : context_(context), name_(std::move(name)), grid_(grid), texelBytes_(texelBytes), options_(std::move(options))
{
    options_.method = name_;
    options_.streamedSlabs = true;
    // Staging is MemoryUsage::Upload: the first host-visible, coherent memory type, as the allocator picks it.
    VkPhysicalDeviceMemoryProperties memory;
    vkGetPhysicalDeviceMemoryProperties(context.physicalDevice(), &memory);
    const VkMemoryPropertyFlags upload = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    for (uint32_t i = 0; i < memory.memoryTypeCount; ++i)
        if ((memory.memoryTypes[i].propertyFlags & upload) == upload) {
            stagingOnDevice_ = (memory.memoryTypes[i].propertyFlags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) != 0;
            break;
        }
}

std::unique_ptr<SlabMethod> createSlabMethod(const Context& context, const Volume& grid, const ExtractOptions& options,
                                             uint64_t budget)
{
    if (!options.weld)
        fail("streamed extraction makes one welded mesh; leave out --no-weld");
    if (options.method == "block" || options.method == "auto")
        return createBlockSlabMethod(context, grid, options);
    if (options.method == "scan")
        return createScanSlabMethod(context, grid, options, budget);
    // histopyramid's count pyramid and dual's edge hash table span the whole volume.
    fail("streamed extraction runs the block or the scan method, not '" + options.method +
         "' (its work spans the whole volume): give --method block or --method scan, or leave out --stream and "
         "--device-budget");
}

} // namespace isoscope
