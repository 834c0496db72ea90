#pragma once
// isoscope on the viewer's device: the volume, the isosurface of the chosen
// method, the raycasters, and the Renderer that records what the mode
// draws. Members go in reverse order, so the Renderer goes before what it
// draws. Changing the method or loading a volume waits for the device,
// since frames in flight still read the objects replaced. The first
// iso-auto frame of a volume calibrates its cost model first (a few hundred
// raycast frames at the window's size, on the calling thread).
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <isoscope/isoscope.h>

#include "options.h"
#include "volume_loader.h"

namespace viewer {

struct ViewerScene {
    isoscope::api::Context& context;
    std::string source;                        // the path or spec loaded
    std::optional<isoscope::api::Volume> volume;
    std::vector<uint64_t> histogram;           // kHistogramBins over the value range
    std::optional<isoscope::api::Isosurface> surface;
    std::optional<isoscope::api::IsoRaycast> raycast;
    std::optional<isoscope::api::VolumeRendering> dvr;
    std::optional<isoscope::api::Renderer> renderer;
    Mode mode = Mode::Mesh;
    isoscope::api::Method method = isoscope::api::Method::Block;
    bool weld = true;
    std::string transferFunction;              // the preset or file last read ("" once edited)
    isoscope::api::TransferPoints tfPoints;    // what the volume rendering draws with
    std::optional<isoscope::api::ClipBox> clip; // the box the rays sample, or the whole volume
    float iso = 0.0f;
    // The frame's size and camera, which iso-auto's calibration measures with.
    VkExtent2D extent{};
    isoscope::api::Camera camera;

    static constexpr uint32_t kHistogramBins = 256;

    // Loads on the calling thread (volume_loader.h loads on another); throws
    // samplehost::Failure with isoscope's message, the scene unchanged.
    void load(const std::string& pathOrSpec, std::optional<float> isovalue);
    // What a load made takes the place of what is shown, after the frames in flight.
    void install(LoadedVolume&& loaded, std::optional<float> isovalue);
    void setMode(Mode newMode);
    void setMethod(isoscope::api::Method newMethod);
    void setWeld(bool on);
    void setIsovalue(float value);
    void setTransferFunction(const std::string& presetOrPath);
    void setTransferPoints(const isoscope::api::TransferPoints& points);
    void setClip(const std::optional<isoscope::api::ClipBox>& box);
    // A new Isosurface for the method and weld, after the frames in flight that read the old one.
    void remakeSurface();
    bool drawsMesh() const { return mode == Mode::Mesh || mode == Mode::MeshDvr; }
};

// vkDeviceWaitIdle under the queue's lock (a load may be submitting on another thread).
void waitForDevice(isoscope::api::Context& context);

// The Renderer (clearing its targets: the viewer draws nothing under it) and the scene's volume.
ViewerScene createViewerScene(isoscope::api::Context& context, const Options& options, VkExtent2D extent);

} // namespace viewer
