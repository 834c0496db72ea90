#pragma once
// How a sample's main() ends, the same for every sample: exit code 0 when
// done, 1 on a Failure (its message printed), 2 on a UsageError (the message
// and the usage printed), 3 when validation reported any message.
#include <functional>
#include <stdexcept>

#include "host_instance.h"

namespace samplehost {

// A bad command line: the message names the option.
struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Runs `body` with the validation log that outlives the instance it makes.
int runSample(const char* name, const char* usage, const std::function<void(ValidationLog&)>& body);

} // namespace samplehost
