#pragma once
// What the public API's objects hold: the engine's own objects behind each
// pimpl, and the one function that turns the engine's exceptions into
// Results at the API boundary.
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/context.h"
#include "core/device_features.h"
#include "core/error.h"
#include "core/parameter_check.h"
#include "core/vk_check.h"
#include "dvr/dvr_raycaster.h"
#include "extract/extraction_run.h"
#include "extract/gpu_extractor.h"
#include "isoscope/isoscope.h"
#include "mesh/mesh.h"
#include "raycast/iso_raycaster.h"
#include "raycast/raycast_calibration.h"
#include "volume/gpu_volume.h"
#include "volume/volume.h"
#include "volume/volume_region.h"

namespace isoscope::api {

// Throw Error naming the parameter, the value and the allowed range.
void checkIsovalue(float iso);
void checkCamera(const Camera& camera);

// The engine's orbit camera looking from camera.eye at camera.target.
OrbitCamera orbitCamera(const Camera& camera);

// vkQueueWaitIdle under the queue's lock (another thread may be loading).
inline VkResult waitQueueIdle(isoscope::Context& context)
{
    std::lock_guard queue(context.queueMutex());
    return vkQueueWaitIdle(context.queue());
}

// The engine's grid of a VolumeDesc, no samples; throws Error, prefixed
// with `what` (the call), for dims below 2 or a spacing not positive.
isoscope::Volume engineGrid(const VolumeDesc& desc, const std::string& what);

// The Error for the exception being handled (call inside a catch block).
Error currentError(ErrorCode fallback);

// Runs `body` and returns what it returns, or the Error of what it threw.
template <typename T, typename Body>
Result<T> guarded(ErrorCode fallback, Body&& body)
{
    try {
        return body();
    } catch (...) {
        return currentError(fallback);
    }
}

template <typename Body>
Status guardedStatus(ErrorCode fallback, Body&& body)
{
    try {
        body();
        return {};
    } catch (...) {
        return currentError(fallback);
    }
}

struct DeviceSetup::Impl {
    std::unique_ptr<isoscope::DeviceFeatureChain> chain;
    std::vector<const char*> extensions;
    uint32_t queueFamily = 0;
};

// A new implementation as its handle's owner, deleted inside the library.
template <typename Impl>
typename detail::Handle<Impl>::Owner own(Impl* impl)
{
    return {impl, [](Impl* p) { delete p; }};
}

struct detail::ContextImpl {
    std::unique_ptr<isoscope::Context> context;
};

// Something made from a volume that derives state from its samples (value
// ranges): it adds the passes that derive it again after update().
struct RegionDerivation {
    const void* owner = nullptr;
    std::function<void(RenderGraph&, const VolumeRegion&)> addPasses;
};

struct detail::VolumeImpl {
    isoscope::Context& context;
    isoscope::Volume volume;
    std::unique_ptr<isoscope::GpuVolume> gpu;
    std::vector<RegionDerivation> derivations; // of the objects made from it, alive
    isoscope::FieldSource field() const { return {&volume, gpu.get()}; }
    void forget(const void* owner)
    {
        std::erase_if(derivations, [owner](const RegionDerivation& d) { return d.owner == owner; });
    }
};

struct detail::IsosurfaceImpl {
    ~IsosurfaceImpl() { volume.forget(this); }
    isoscope::Context& context;
    detail::VolumeImpl& volume;
    std::unique_ptr<isoscope::GpuExtractor> extractor;
    isoscope::GpuMesh mesh; // what every frame writes and draws
    float iso = 0.0f;
    // Counts changes that invalidate frames built before (the mesh replaced,
    // the method's work buffers grown): a Renderer rebuilds them.
    uint64_t generation = 0;
    // extract()'s graph, kept from call to call (compiled once; its mesh
    // holds the last extraction until the next extract()), and the
    // generation it was built at: a frame that grew the work buffers after
    // it makes it stale.
    std::unique_ptr<isoscope::GraphExtraction> extraction;
    uint64_t extractionGeneration = 0;
    bool extracted = false;                 // extraction's mesh holds a finished extract()
    isoscope::Buffer meshDownload;          // host-cached, kept: extract()'s read-back
    std::vector<PassTime> lastPassTimes;    // extract()'s final run
    Method method = Method::Block;
    isoscope::Buffer quadDrawArguments;     // quad meshes: the host's draw (MeshBuffers::quadDrawArguments)
};

struct detail::IsoRaycastImpl {
    ~IsoRaycastImpl() { volume.forget(this); }
    detail::VolumeImpl& volume;
    isoscope::IsoRaycaster raycaster;
    isoscope::RaycastParams params;
    ClipBox clip; // as given; params.clip holds it in voxels
    std::unique_ptr<isoscope::RaycastCalibration> calibration; // calibrateStep()'s, until it finishes
};

struct detail::VolumeRenderingImpl {
    ~VolumeRenderingImpl() { volume.forget(this); }
    detail::VolumeImpl& volume;
    isoscope::DvrRaycaster dvr;
    isoscope::DvrParams params;
    isoscope::TransferFunction transferFunction; // the one set last
    ClipBox clip;                                // as given; params.clip holds it in voxels
};

} // namespace isoscope::api
