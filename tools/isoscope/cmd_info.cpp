// isoscope info: the Vulkan devices, the one isoscope chooses, and what it learned about it.
#include <cstdio>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "core/context.h"
#include "extract/extract.h"

namespace isoscope::cli {

Run addInfoCommand(CLI::App& app)
{
    auto* command = app.add_subcommand("info", "List Vulkan devices and the chosen one's subgroup size, limits and "
                                                "memory heaps (ISOSCOPE_DEVICE picks another; ISOSCOPE_VALIDATION=1 "
                                                "turns validation on)");
    auto json = std::make_shared<bool>(false);
    auto methods = std::make_shared<bool>(false);
    command->add_flag("--json", *json, "Print JSON instead of text");
    command->add_flag("--methods", *methods, "Only list the extraction methods, one per line (needs no device)");
    return [json, methods]() {
        if (*methods) {
            for (const std::string& method : extractionMethods())
                std::printf("%s\n", method.c_str());
            return 0;
        }
        ContextOptions options;
        options.pipelineCacheOnDisk = false;
        Context context(options);
        const DeviceInfo& info = context.info();
        nlohmann::json devices = nlohmann::json::array();
        for (const PhysicalDeviceSummary& d : context.devices()) {
            nlohmann::json entry = {{"index", d.index}, {"name", d.name}, {"type", d.type}, {"usable", d.usable}};
            if (!d.usable)
                entry["why_not"] = d.whyNot;
            devices.push_back(entry);
        }
        nlohmann::json report = {{"devices", devices},
                                 {"chosen", context.chosenDeviceIndex()},
                                 {"validation", context.validationEnabled()},
                                 {"device", toJson(info)}};
        if (*json) {
            writeJson(report, "");
            return 0;
        }
        for (const PhysicalDeviceSummary& d : context.devices())
            std::printf("%s %u: %s (%s)%s%s\n", d.index == context.chosenDeviceIndex() ? "*" : " ", d.index,
                        d.name.c_str(), d.type.c_str(), d.usable ? "" : " unusable: ", d.whyNot.c_str());
        std::printf("\nchosen: %s\n  driver: %s\n  Vulkan %s\n", info.name.c_str(), info.driver.c_str(),
                    report["device"]["api_version"].get<std::string>().c_str());
        std::string operations;
        for (const std::string& op : subgroupOperationNames(info.subgroupOperations))
            operations += (operations.empty() ? "" : " ") + op;
        std::printf("  subgroup size %u (range %u-%u%s), operations: %s\n", info.subgroupSize, info.minSubgroupSize,
                    info.maxSubgroupSize, info.subgroupSizeControl ? ", required per pipeline" : "",
                    operations.c_str());
        std::printf("  shared memory %u B, workgroup up to %u invocations (%u x %u x %u)\n",
                    info.maxComputeSharedMemorySize, info.maxComputeWorkGroupInvocations,
                    info.maxComputeWorkGroupSize[0], info.maxComputeWorkGroupSize[1], info.maxComputeWorkGroupSize[2]);
        std::printf("  storage buffer range %s, largest buffer %s, 3D image up to %u\n",
                    formatBytes(info.maxStorageBufferRange).c_str(), formatBytes(info.maxBufferSize).c_str(),
                    info.maxImageDimension3D);
        std::printf("  per shader stage %u storage buffers, %u uniform buffers, %u sampled images, %u storage "
                    "images, %u samplers, %u resources; %u push descriptors\n",
                    info.maxPerStageDescriptorStorageBuffers, info.maxPerStageDescriptorUniformBuffers,
                    info.maxPerStageDescriptorSampledImages, info.maxPerStageDescriptorStorageImages,
                    info.maxPerStageDescriptorSamplers, info.maxPerStageResources, info.maxPushDescriptors);
        for (size_t i = 0; i < info.heaps.size(); ++i)
            std::printf("  heap %zu: %s%s%s\n", i, formatBytes(info.heaps[i].size).c_str(),
                        info.heaps[i].deviceLocal ? " device-local" : "",
                        info.memoryBudget ? (", budget " + formatBytes(info.heaps[i].budget)).c_str() : "");
        return 0;
    };
}

} // namespace isoscope::cli
