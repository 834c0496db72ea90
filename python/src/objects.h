#pragma once
// What the Python objects hold: a Context with the validation messages it
// collected and a lock (the engine has one queue; calls run without the GIL,
// so two Python threads could otherwise record at once), and Volumes that
// keep their Context alive and one Isosurface per method, made on first use.
#include <array>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <isoscope/isoscope.h>

namespace isoscope::python {

struct MessageLog {
    std::mutex mutex;
    std::vector<std::string> messages;
};

struct PyContext {
    std::shared_ptr<MessageLog> log = std::make_shared<MessageLog>();
    std::mutex gpu; // held by every call that uses the device
    std::optional<api::Context> context;
};

struct PyVolume {
    std::shared_ptr<PyContext> context; // first: destroyed last
    std::optional<api::Volume> volume;
    // The engine axis (0 = x, fastest in memory) behind each output
    // coordinate: for an array, its axes in order; for a file, x y z.
    std::array<int, 3> engineAxis{0, 1, 2};
    std::map<api::Method, api::Isosurface> surfaces; // destroyed before the volume

    api::Isosurface& surface(api::Method method); // call holding context->gpu, without the GIL
    // Whether the array order is a mirror image of the engine's (an odd
    // permutation of axes): triangles then reverse to keep their winding.
    bool mirrored() const;
};

api::Method parseMethod(const std::string& name);

} // namespace isoscope::python
