#pragma once
// What every API test starts from: isoscope's own device with validation
// and synchronization validation on, every message recorded (a test fails
// on any), at the subgroup size the test run expects.
#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include <isoscope/isoscope.h>

namespace api_test {

struct ApiContext {
    std::vector<std::string> messages;
    std::mutex messagesMutex; // messages come from the thread that made the call, and a test may load on another
    isoscope::api::Context context;

    ApiContext() : context(create(messages, messagesMutex)) {}
    ~ApiContext() { CHECK(messages.empty()); }

private:
    static isoscope::api::Context create(std::vector<std::string>& messages, std::mutex& mutex)
    {
        isoscope::api::ContextOptions options;
        options.validation = true;
        options.onMessage = [&messages, &mutex](std::string_view message) {
            std::lock_guard lock(mutex);
            messages.emplace_back(message);
        };
        auto context = isoscope::api::Context::create(options);
        if (!context)
            FAIL(context.error().message);
        if (const char* expected = std::getenv("ISOSCOPE_EXPECT_SUBGROUP_SIZE"))
            REQUIRE(context->subgroupSize() == uint32_t(std::atoi(expected)));
        return std::move(*context);
    }
};

// The error a failed call returned; fails the test when it succeeded.
template <typename R>
isoscope::api::Error errorOf(const R& result)
{
    REQUIRE_FALSE(result.ok());
    return result.error();
}

} // namespace api_test
