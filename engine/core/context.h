#pragma once
// The Vulkan instance, the chosen device, its main queue and the queue
// uploads take.
//
// Queues: the main queue (graphics + compute, else compute) runs every
// frame; a transfer queue of a dedicated transfer family (a copy engine of
// its own) is created beside it where the device has one, so uploads
// overlap compute work (streamed extraction; graph/graph_queue.h submits to
// either). Where the device has none (lavapipe), or ContextOptions::
// transferQueue is off (ISOSCOPE_TRANSFER_QUEUE=0), transferQueue() is the
// main queue itself and no ownership transfers happen.
//
// Device choice: a discrete GPU first, then an integrated one, then a virtual
// GPU, then a CPU device (lavapipe); ISOSCOPE_DEVICE overrides it with an index
// (as `isoscope info` lists them) or a case-insensitive name substring.
// Validation (VK_LAYER_KHRONOS_validation with synchronization validation)
// is on when ContextOptions::validation is set or ISOSCOPE_VALIDATION=1; every
// message goes to ContextOptions::onValidationMessage (tests turn it into a
// failure), or to stderr when none is given.
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <volk.h>

#include "core/device_info.h"
#include "core/memory.h"
#include "core/queue_role.h"

namespace isoscope {

class PipelineCache;

struct ContextOptions {
    bool validation = false;                 // also enabled by ISOSCOPE_VALIDATION=1
    std::string deviceSelector;              // index or name substring; empty: ISOSCOPE_DEVICE, then automatic
    std::function<void(const std::string&)> onValidationMessage;
    bool pipelineCacheOnDisk = true;         // $XDG_CACHE_HOME/isoscope (or ~/.cache/isoscope)
    // Ask the driver for each compute pipeline's statistics (registers,
    // shared memory, ...) through VK_KHR_pipeline_executable_properties, where
    // the device has it: what limits how many workgroups share a multiprocessor.
    bool capturePipelineStatistics = false;
    // A dedicated transfer queue where the device has one (also off with
    // ISOSCOPE_TRANSFER_QUEUE=0): the copy ceiling and streaming compare both.
    bool transferQueue = true;
};

// One compute pipeline's statistics as its driver names them (values as text).
struct PipelineStatistics {
    std::string program;     // the shader's name
    std::string executable;  // the driver's name for the compiled stage
    std::vector<std::pair<std::string, std::string>> values;
};

// The Vulkan objects of a host application that embeds isoscope (a renderer
// with its own window and frame loop). The host created the device with
// Vulkan 1.3, synchronization2, maintenance4, subgroupSizeControl, dynamic
// rendering and VK_KHR_push_descriptor, and lists in `enabled` the optional
// features it turned on, which isoscope's shaders may then use. The Context
// borrows these handles and destroys none of them. volk's function pointers
// are process-wide: use one device per process.
struct HostDevice {
    VkInstance instance = VK_NULL_HANDLE;
    VkPhysicalDevice physicalDevice = VK_NULL_HANDLE;
    VkDevice device = VK_NULL_HANDLE;
    VkQueue queue = VK_NULL_HANDLE; // graphics + compute, for the raster pass
    uint32_t queueFamily = 0;
    decltype(DeviceInfo::features) enabled{};
    VkPipelineCache pipelineCache = VK_NULL_HANDLE; // optional: the host's, used instead of isoscope's own
    std::mutex* queueMutex = nullptr; // optional: the host's lock on `queue`, held around each use of it
};

struct PhysicalDeviceSummary {
    uint32_t index = 0;
    std::string name;
    std::string type;
    uint32_t apiVersion = 0;
    bool usable = false;      // Vulkan 1.3 with a compute queue and the features the engine needs
    std::string whyNot;       // when not usable
};

class Context {
public:
    explicit Context(const ContextOptions& options = {});
    // Wraps a host's instance and device (see HostDevice); options.validation
    // and the device selector do not apply: the host chose both.
    explicit Context(const HostDevice& host, const ContextOptions& options = {});
    ~Context();
    Context(const Context&) = delete;
    Context& operator=(const Context&) = delete;

    VkInstance instance() const { return instance_; }
    VkPhysicalDevice physicalDevice() const { return physical_; }
    VkDevice device() const { return device_; }
    VkQueue queue() const { return queue_; }
    uint32_t queueFamily() const { return queueFamily_; }
    const DeviceInfo& info() const { return info_; }

    // The transfer queue(s): `index` < transferQueueCount() (2 where the
    // dedicated family has two queues, for the two-queue copy ceiling).
    // Without a dedicated family: the main queue, its family and its lock.
    VkQueue transferQueue(uint32_t index = 0) const { return index < transferQueues_.size() ? transferQueues_[index] : queue_; }
    uint32_t transferQueueFamily() const { return transferFamily_; }
    uint32_t transferQueueCount() const { return transferQueues_.empty() ? 1 : uint32_t(transferQueues_.size()); }
    bool hasDedicatedTransferQueue() const { return !transferQueues_.empty(); }
    uint32_t transferTimestampValidBits() const { return hasDedicatedTransferQueue() ? transferTimestampBits_ : info_.timestampValidBits; }
    std::mutex& transferQueueMutex(uint32_t index = 0) const
    {
        return hasDedicatedTransferQueue() ? transferMutexes_[index % 2] : *queueMutex_;
    }
    uint32_t queueFamily(QueueRole role) const { return role == QueueRole::Main ? queueFamily_ : transferFamily_; }
    bool validationEnabled() const { return messenger_ != VK_NULL_HANDLE; }
    const std::vector<PhysicalDeviceSummary>& devices() const { return devices_; }
    uint32_t chosenDeviceIndex() const { return chosenIndex_; }

    Allocator& allocator() { return *allocator_; }
    const Allocator& allocator() const { return *allocator_; }
    VkPipelineCache pipelineCache() const;
    // False where the host gave its own cache (Context::wrap), which may be
    // externally synchronized: then no two pipelines compile at once in it.
    bool ownsPipelineCache() const { return hostPipelineCache_ == VK_NULL_HANDLE; }

    // Records commands with `record` into a fresh command buffer, submits it and
    // waits for it: for set-up work (uploads, read-backs, tests), not for frames.
    // Callable from several threads at once (one runs at a time): a volume
    // loads on one thread while another records frames.
    void submitAndWait(const std::function<void(VkCommandBuffer)>& record);
    // The lock on queue(): the host's (HostDevice::queueMutex) or the
    // Context's own. Held around every use of the queue (Vulkan requires
    // queue use to be externally synchronized), by isoscope and by a host
    // that uses the queue while another thread may load.
    std::mutex& queueMutex() const { return *queueMutex_; }

    // Called by the debug messenger.
    void reportValidationMessage(const std::string& message);

    // ContextOptions::capturePipelineStatistics, and whether the device can.
    bool capturesPipelineStatistics() const { return capturePipelineStatistics_; }
    void recordPipelineStatistics(PipelineStatistics statistics) { pipelineStatistics_.push_back(std::move(statistics)); }
    // Every pipeline's, in creation order.
    const std::vector<PipelineStatistics>& pipelineStatistics() const { return pipelineStatistics_; }

private:
    void createInstance(bool validation);
    void chooseDevice(const std::string& selector);
    void createDevice();
    void createDeviceObjects(); // command pool, fence, allocator, pipeline cache
    void destroy() noexcept;

    ContextOptions options_;
    VkInstance instance_ = VK_NULL_HANDLE;
    VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
    VkPhysicalDevice physical_ = VK_NULL_HANDLE;
    VkDevice device_ = VK_NULL_HANDLE;
    bool ownsDevice_ = true; // false for a host's device
    VkPipelineCache hostPipelineCache_ = VK_NULL_HANDLE;
    VkQueue queue_ = VK_NULL_HANDLE;
    uint32_t queueFamily_ = 0;
    std::vector<VkQueue> transferQueues_; // empty: the main queue serves
    uint32_t transferFamily_ = 0;
    uint32_t transferTimestampBits_ = 0;
    mutable std::mutex transferMutexes_[2];
    uint32_t chosenIndex_ = 0;
    DeviceInfo info_;
    std::vector<PhysicalDeviceSummary> devices_;
    VkCommandPool commandPool_ = VK_NULL_HANDLE;
    VkFence fence_ = VK_NULL_HANDLE;
    std::mutex submitMutex_; // the command pool and fence submitAndWait uses
    std::mutex ownQueueMutex_;
    std::mutex* queueMutex_ = &ownQueueMutex_;
    std::unique_ptr<Allocator> allocator_;
    std::unique_ptr<PipelineCache> pipelineCache_;
    bool capturePipelineStatistics_ = false;
    std::vector<PipelineStatistics> pipelineStatistics_;
};

// True when ISOSCOPE_VALIDATION is set to something other than 0.
bool validationRequestedByEnvironment();

} // namespace isoscope
