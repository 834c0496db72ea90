#pragma once
// A VkPipelineCache kept on disk between runs, so the driver compiles each
// specialized shader once per device and driver version. The file is per
// device (its pipeline-cache UUID is in the name); a file that is unreadable,
// truncated or from another device/driver is ignored, never trusted.
#include <filesystem>
#include <volk.h>

namespace isoscope {

struct DeviceInfo;

class PipelineCache {
public:
    // An empty `folder` keeps the cache in memory only.
    PipelineCache(VkDevice device, const DeviceInfo& info, std::filesystem::path folder);
    ~PipelineCache(); // writes the cache back (best effort: a read-only disk is not an error)
    PipelineCache(const PipelineCache&) = delete;
    PipelineCache& operator=(const PipelineCache&) = delete;

    VkPipelineCache handle() const { return cache_; }
    const std::filesystem::path& file() const { return file_; }

private:
    VkDevice device_;
    VkPipelineCache cache_ = VK_NULL_HANDLE;
    std::filesystem::path file_;
};

// $ISOSCOPE_CACHE_DIR, else $XDG_CACHE_HOME/isoscope, else ~/.cache/isoscope; empty if none is known.
std::filesystem::path defaultPipelineCacheFolder();

} // namespace isoscope
