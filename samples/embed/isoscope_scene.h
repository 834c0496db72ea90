#pragma once
// isoscope on the host's device: the wrapped Context, the volume, what
// --surface picks (a mesh, an isosurface raycast or a volume rendering) and
// the Renderer that records them into the host's frame. Members are
// destroyed in reverse order, so the Renderer goes before what it draws and
// the Context last.
#include <cstdint>
#include <memory>
#include <optional>

#include <isoscope/isoscope.h>

#include "host_device.h"
#include "options.h"

namespace embed {
using namespace samplehost; // the host code shared with the viewer (samples/common)

struct IsoscopeScene {
    std::optional<isoscope::api::Context> context;
    std::optional<isoscope::api::Volume> volume;
    std::optional<isoscope::api::Isosurface> surface;
    std::optional<isoscope::api::IsoRaycast> raycast;
    std::optional<isoscope::api::VolumeRendering> dvr;
    std::optional<isoscope::api::Renderer> renderer; // absent with --scene host
    float baseIso = 0.0f;
    float valueSpan = 0.0f;
    float animateSpan = 0.2f;

    // The isovalue frame `frame` draws at: fixed, or with --animate a sine
    // about it, set from the host's side only (no read-back in the frame).
    void setFrameIsovalue(uint64_t frame, bool animate);
};

std::unique_ptr<IsoscopeScene> createIsoscopeScene(HostDevice& host, const Options& options, VkExtent2D extent);

} // namespace embed
