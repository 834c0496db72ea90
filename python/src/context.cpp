#include <cstdio>

#include <pybind11/stl.h>

#include "errors.h"
#include "objects.h"

namespace py = pybind11;

namespace isoscope::python {

namespace {

py::dict infoDict(const api::DeviceInfo& info, bool inUse)
{
    py::dict d;
    d["index"] = info.index;
    d["name"] = info.name;
    d["type"] = info.type;
    d["api_version"] = std::to_string(VK_API_VERSION_MAJOR(info.apiVersion)) + "." +
                       std::to_string(VK_API_VERSION_MINOR(info.apiVersion)) + "." +
                       std::to_string(VK_API_VERSION_PATCH(info.apiVersion));
    d["usable"] = info.usable;
    if (!info.usable)
        d["why_not"] = info.whyNot;
    if (inUse) {
        d["driver"] = info.driver;
        d["subgroup_size"] = info.subgroupSize;
        d["device_local_bytes"] = info.deviceLocalBytes;
        d["budget_bytes"] = info.budgetBytes;
        d["max_image_dimension_3d"] = info.maxImageDimension3D;
    }
    return d;
}

// The engine loads Vulkan's device functions process-wide (volk), so a
// second device in one process would leave the first one's calls dangling.
std::weak_ptr<PyContext> liveContext;

std::shared_ptr<PyContext> createContext(const py::object& device, std::optional<bool> validation, bool pipelineCache)
{
    api::ContextOptions options;
    if (!device.is_none()) {
        if (py::isinstance<py::bool_>(device) ||
            !(py::isinstance<py::int_>(device) || py::isinstance<py::str>(device)))
            throw py::type_error("Context: device must be an index (int) or a name substring (str), not " +
                                 std::string(py::str(device.get_type().attr("__name__"))));
        if (py::isinstance<py::int_>(device) && device.cast<long long>() < 0)
            throw py::value_error("Context: device index " + std::string(py::str(device)) + " is negative");
        options.device = py::str(device);
    }
    if (auto live = liveContext.lock())
        throw py::value_error("isoscope allows one Context per process and one is alive (on " +
                              live->context->deviceName() + "): use it, or drop every reference to it first");
    // None leaves it to ISOSCOPE_VALIDATION=1, which the engine reads itself.
    options.validation = validation.value_or(false);
    options.pipelineCacheOnDisk = pipelineCache;
    auto context = std::make_shared<PyContext>();
    // Called from whichever thread runs Vulkan, without the GIL: no Python here.
    options.onMessage = [log = context->log](std::string_view message) {
        std::fprintf(stderr, "isoscope: validation: %.*s\n", int(message.size()), message.data());
        std::lock_guard lock(log->mutex);
        log->messages.emplace_back(message);
    };
    api::Result<api::Context> created = [&] {
        py::gil_scoped_release release;
        return api::Context::create(options);
    }();
    context->context.emplace(unwrap(std::move(created)));
    liveContext = context;
    return context;
}

} // namespace

void bindContext(py::module_& m)
{
    py::class_<PyContext, std::shared_ptr<PyContext>>(m, "Context", R"(The Vulkan device isoscope runs on.

Context(device=None, validation=None, pipeline_cache=True)

device: an index (as `isoscope info` and Context.devices list them) or a
    case-insensitive name substring; None: the fastest device (ISOSCOPE_DEVICE
    overrides it).
validation: Khronos validation with synchronization validation; None: on
    when ISOSCOPE_VALIDATION=1. Messages are printed to stderr and kept in
    validation_messages.
pipeline_cache: keep compiled pipelines in ~/.cache/isoscope.

One Context may be alive per process (Vulkan's device functions are loaded
process-wide); a second raises ValueError while the first is referenced.
Raises RuntimeError when no usable Vulkan 1.3 device is found.)")
        .def(py::init(&createContext), py::arg("device") = py::none(), py::arg("validation") = py::none(),
             py::arg("pipeline_cache") = true)
        .def_property_readonly("device_name", [](const PyContext& c) { return c.context->deviceName(); },
                               "The device's name.")
        .def_property_readonly("subgroup_size", [](const PyContext& c) { return c.context->subgroupSize(); },
                               "The subgroup size isoscope's compute shaders run at.")
        .def_property_readonly("info", [](const PyContext& c) { return infoDict(c.context->info(), true); },
                               "The device in use: index, name, type, api_version, driver, subgroup_size, "
                               "device_local_bytes, budget_bytes, max_image_dimension_3d.")
        .def_property_readonly("devices", [](const PyContext& c) {
                py::list result;
                for (const api::DeviceInfo& info : c.context->devices())
                    result.append(infoDict(info, false));
                return result;
            }, "Every Vulkan device found: index, name, type, api_version, usable (why_not where not).")
        .def_property_readonly("validation_messages", [](const PyContext& c) {
                std::lock_guard lock(c.log->mutex);
                return c.log->messages;
            }, "The validation messages reported so far (empty without validation).")
        .def("clear_validation_messages", [](PyContext& c) {
                std::lock_guard lock(c.log->mutex);
                c.log->messages.clear();
            }, "Forgets the validation messages reported so far.")
        .def("__repr__", [](const PyContext& c) { return "<isoscope.Context on " + c.context->deviceName() + ">"; });
    m.def("_live_context", [] { return liveContext.lock(); }, "The Context alive in this process, or None.");
}

} // namespace isoscope::python
