// GPU test main: runs the Catch2 session, then fails the run if the
// validation layers said anything that no test claimed.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cstdio>

#include "gpu_test_context.h"

int main(int argc, char* argv[])
{
    int failures = Catch::Session().run(argc, argv);
    isoscope::test::destroyGpuContext(); // its destruction may report too
    auto messages = isoscope::test::takeValidationMessages();
    for (const auto& message : messages)
        std::fprintf(stderr, "unclaimed %s\n", message.c_str());
    return failures ? failures : (messages.empty() ? 0 : 1);
}
