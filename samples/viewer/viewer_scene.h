#pragma once
// isoscope on the viewer's device: the volume, the isosurface of the chosen
// method, the raycasters, and the Renderer that records what the mode
// draws. Members go in reverse order, so the Renderer goes before what it
// draws. Changing the method or loading a volume waits for the device,
// since frames in flight still read the objects replaced.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <isoscope/isoscope.h>

#include "options.h"

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
    std::string transferFunction;
    float iso = 0.0f;

    static constexpr uint32_t kHistogramBins = 256;

    // Throws samplehost::Failure with isoscope's message (the scene is then empty).
    void load(const std::string& pathOrSpec, std::optional<float> isovalue);
    void setMode(Mode newMode);
    void setMethod(isoscope::api::Method newMethod);
    void setWeld(bool on);
    void setIsovalue(float value);
    void setTransferFunction(const std::string& presetOrPath);
    // A new Isosurface for the method and weld, after the frames in flight that read the old one.
    void remakeSurface();
    bool drawsMesh() const { return mode == Mode::Mesh || mode == Mode::MeshDvr; }
};

// The Renderer (clearing its targets: the viewer draws nothing under it) and the scene's volume.
ViewerScene createViewerScene(isoscope::api::Context& context, const Options& options, VkExtent2D extent);

} // namespace viewer
