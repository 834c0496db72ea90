#include "core/pipeline_cache.h"

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>

#include "core/device_info.h"
#include "core/vk_check.h"

namespace isoscope {

namespace {

std::string hex(const uint8_t* bytes, size_t count)
{
    static const char digits[] = "0123456789abcdef";
    std::string text;
    for (size_t i = 0; i < count; ++i) {
        text += digits[bytes[i] >> 4];
        text += digits[bytes[i] & 15];
    }
    return text;
}

// The header Vulkan puts in front of cache data: reject data from another device.
bool headerMatches(const std::vector<char>& data, const DeviceInfo& info)
{
    VkPipelineCacheHeaderVersionOne header;
    if (data.size() < sizeof(header))
        return false;
    std::memcpy(&header, data.data(), sizeof(header));
    return header.headerSize >= sizeof(header) && header.headerVersion == VK_PIPELINE_CACHE_HEADER_VERSION_ONE &&
           header.vendorID == info.vendorId && header.deviceID == info.deviceId &&
           std::memcmp(header.pipelineCacheUUID, info.pipelineCacheUuid.data(), VK_UUID_SIZE) == 0;
}

} // namespace

std::filesystem::path defaultPipelineCacheFolder()
{
    if (const char* dir = std::getenv("ISOSCOPE_CACHE_DIR"); dir && *dir)
        return dir;
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
        return std::filesystem::path(xdg) / "isoscope";
    if (const char* home = std::getenv("HOME"); home && *home)
        return std::filesystem::path(home) / ".cache" / "isoscope";
    return {};
}

PipelineCache::PipelineCache(VkDevice device, const DeviceInfo& info, std::filesystem::path folder) : device_(device)
{
    std::vector<char> data;
    if (!folder.empty()) {
        file_ = folder / ("pipelines-" + hex(info.pipelineCacheUuid.data(), info.pipelineCacheUuid.size()) + ".bin");
        std::ifstream in(file_, std::ios::binary);
        if (in)
            data.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
        if (!headerMatches(data, info))
            data.clear();
    }
    VkPipelineCacheCreateInfo createInfo{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
    createInfo.initialDataSize = data.size();
    createInfo.pInitialData = data.empty() ? nullptr : data.data();
    VK_CHECK(vkCreatePipelineCache(device_, &createInfo, nullptr, &cache_));
}

PipelineCache::~PipelineCache()
{
    if (!file_.empty()) {
        size_t size = 0;
        if (vkGetPipelineCacheData(device_, cache_, &size, nullptr) == VK_SUCCESS && size > 0) {
            std::vector<char> data(size);
            if (vkGetPipelineCacheData(device_, cache_, &size, data.data()) == VK_SUCCESS) {
                std::error_code error;
                std::filesystem::create_directories(file_.parent_path(), error);
                // Write then rename, so a concurrent reader never sees half a file.
                std::filesystem::path temporary = file_;
                temporary += ".tmp" + std::to_string(reinterpret_cast<uintptr_t>(this));
                std::ofstream out(temporary, std::ios::binary);
                if (out.write(data.data(), std::streamsize(size)) && (out.close(), true))
                    std::filesystem::rename(temporary, file_, error);
                else
                    std::filesystem::remove(temporary, error);
            }
        }
    }
    vkDestroyPipelineCache(device_, cache_, nullptr);
}

} // namespace isoscope
