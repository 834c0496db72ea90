#pragma once
// One Vulkan context shared by the GPU tests, with validation and
// synchronization validation always on. Every validation message is
// collected; each test ends with REQUIRE_NO_VALIDATION_MESSAGES(), and the
// test main fails the run if any message is left over.
#include <string>
#include <vector>

#include "core/context.h"

namespace isoscope::test {

Context& gpuContext();
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
