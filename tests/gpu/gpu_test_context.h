#pragma once
// One Vulkan context shared by the GPU tests, with validation and
// synchronization validation always on. Every validation message is
// collected; each test ends with REQUIRE_NO_VALIDATION_MESSAGES(), and the
// test main fails the run if any message is left over.
#include <functional>
#include <string>
#include <vector>

#include "core/context.h"
#include "graph/render_graph.h"

namespace isoscope::test {

Context& gpuContext();

// Builds a graph with `add`, compiles it and runs it once (submits and waits).
void runGraph(Context& context, const std::function<void(RenderGraph&)>& add);
std::vector<std::string> takeValidationMessages();
// Destroys the context before static destruction: drivers unload their own
// state at exit, and a device destroyed after that crashes (seen on NVIDIA).
void destroyGpuContext();

} // namespace isoscope::test

#define REQUIRE_NO_VALIDATION_MESSAGES()                                                 \
    do {                                                                                 \
        auto messages_ = ::isoscope::test::takeValidationMessages();                     \
        for (const auto& m_ : messages_)                                                 \
            UNSCOPED_INFO(m_);                                                           \
        REQUIRE(messages_.empty());                                                      \
    } while (0)
