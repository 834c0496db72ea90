#include "sample_main.h"

#include <cstdio>

#include "check.h"

namespace samplehost {

int runSample(const char* name, const char* usage, const std::function<void(ValidationLog&)>& body)
{
    ValidationLog log; // outlives the instance: its destruction may still report
    try {
        body(log);
    } catch (const UsageError& error) {
        std::fprintf(stderr, "%s: %s\n\n%s", name, error.what(), usage);
        return 2;
    } catch (const Failure& error) {
        std::fprintf(stderr, "%s: %s\n", name, error.what());
        return 1;
    }
    if (uint32_t messages = log.messages.load()) {
        std::fprintf(stderr, "%s: validation reported %u warnings or errors\n", name, messages);
        return 3;
    }
    return 0;
}

} // namespace samplehost
