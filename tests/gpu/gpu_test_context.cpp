#include "gpu_test_context.h"

#include <memory>
#include <mutex>
#include <utility>

namespace isoscope::test {

namespace {

std::mutex messagesMutex;
std::vector<std::string> messages;
std::unique_ptr<Context> context;

} // namespace

Context& gpuContext()
{
    if (!context) {
        ContextOptions options;
        options.validation = true;
        options.pipelineCacheOnDisk = false;
        options.onValidationMessage = [](const std::string& message) {
            std::lock_guard lock(messagesMutex);
            messages.push_back(message);
        };
        context = std::make_unique<Context>(options);
    }
    return *context;
}

void destroyGpuContext() { context.reset(); }

std::vector<std::string> takeValidationMessages()
{
    std::lock_guard lock(messagesMutex);
    return std::exchange(messages, {});
}

void runGraph(Context& context, const std::function<void(RenderGraph&)>& add)
{
    RenderGraph graph(context);
    add(graph);
    graph.compile();
    graph.execute();
}

} // namespace isoscope::test
