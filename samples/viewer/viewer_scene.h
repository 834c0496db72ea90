#pragma once
// isoscope on the viewer's device: the volume, the isosurface of the chosen
// method, the raycasters, and the Renderer that records what the mode
// draws. Members go in reverse order, so the Renderer goes before what it
// draws. Changing the method or loading a volume waits for the device,
// since frames in flight still read the objects replaced. iso-auto needs
// the raycast's cost model calibrated first (a few hundred raycast frames
// at the window's size): headless on the calling thread at once; in a
// window a few frames at a time between the window's (stepCalibration),
// which meanwhile draw one invocation per ray.
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
    // In a window: iso-auto calibrates between frames (stepCalibration)
    // rather than all at once; `calibrating` while it does.
    bool calibrateBetweenFrames = false;
    bool calibrating = false;
    isoscope::api::CalibrationProgress calibration;

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
    // A new Isosurface for the method and weld, after the frames in flight
    // that read the old one; where it cannot be made (dual unwelded), the
    // old one stays, with its method and weld, and Failure says why.
    void remakeSurface(isoscope::api::Method newMethod, bool newWeld);
    // Runs iso-auto's calibration frames for about `budgetMs` (one at
    // least); once the last ran, iso-auto draws with the cost model. Returns
    // whether it finished.
    bool stepCalibration(double budgetMs);
    bool loaded() const { return volume.has_value(); }
    bool drawsMesh() const { return mode == Mode::Mesh || mode == Mode::MeshDvr; }
};

// vkDeviceWaitIdle under the queue's lock (a load may be submitting on another thread).
void waitForDevice(isoscope::api::Context& context);

// The Renderer (clearing its targets: the viewer draws nothing under it),
// and headless the scene's volume; a window loads it on a worker thread.
ViewerScene createViewerScene(isoscope::api::Context& context, const Options& options, VkExtent2D extent);

} // namespace viewer
