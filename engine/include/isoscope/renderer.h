#pragma once
// A frame of isoscope's passes: the isosurface meshes it draws with its
// raster pass, then one isosurface raycast or volume rendering whose rays
// stop at the depth drawn before them. The passes record into the host's
// command buffer against the host's colour and depth images (imported, with
// their states before and after the frame stated), or into targets of the
// Renderer's own for a headless image (renderImage).
//
// Frames in flight: the host says how many (2 or 3) and, before record()ing
// frame n, has waited for frame n - framesInFlight to finish on the GPU
// (the usual fence per frame slot). Per-frame resources are rotated; the
// mesh grows, when an isovalue needs more room, without a stall (the frame
// that overflowed draws what fit).
//
//   auto renderer = isoscope::api::Renderer::create(context, {.framesInFlight = 2});
//   renderer->addSurface(*surface);        // extracted and drawn every frame
//   renderer->addRaycast(*ray);            // or addVolumeRendering(*dvr)
//   renderer->setCamera(camera);
//   renderer->record(cmd, frameNumber, {hostColor, hostDepth});   // the host's frame loop
//   auto image = renderer->renderImage({1024, 768});             // or headless
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <vulkan/vulkan_core.h>

#include "isoscope/camera.h"
#include "isoscope/context.h"
#include "isoscope/isosurface.h"
#include "isoscope/raycast.h"
#include "isoscope/handle.h"

namespace isoscope::api {

namespace detail {
struct RendererImpl;
} // namespace detail

// Where an image stands: its layout and the last stage and access that
// touched it (before the frame), or that will touch it next (after).
struct ImageState {
    VkImageLayout layout = VK_IMAGE_LAYOUT_UNDEFINED;
    VkPipelineStageFlags2 stage = VK_PIPELINE_STAGE_2_NONE;
    VkAccessFlags2 access = VK_ACCESS_2_NONE;
};

// One of the host's images. Colour: VK_FORMAT_R8G8B8A8_UNORM with colour
// attachment and storage usage (rays write it as a storage image). Depth:
// VK_FORMAT_D32_SFLOAT with depth attachment and sampled usage (rays read
// it), 0 near and 1 far, the projection of projectionMatrix().
struct TargetImage {
    VkImage image = VK_NULL_HANDLE;
    VkImageView view = VK_NULL_HANDLE;
    ImageState before;
    ImageState after;
};

struct FrameTargets {
    TargetImage color;
    TargetImage depth;
};

struct SurfaceStyle {
    std::array<float, 3> frontColor{0.85f, 0.62f, 0.32f};
    std::array<float, 3> backColor{0.35f, 0.55f, 0.85f};
    bool draw = true; // false: extracted every frame, drawn by the host itself
};

struct RendererOptions {
    uint32_t framesInFlight = 2; // 1 to 3
    VkExtent2D extent{1024, 768};
    // true: the frame clears colour and depth first; false: isoscope's
    // passes composite over what the host drew (by depth).
    bool clear = false;
    std::array<float, 4> clearColor{0.08f, 0.08f, 0.10f, 1.0f};
};

// What one frame extracted for one surface. overflowed: the mesh did not
// fit its buffers, the frame drew what fit and later frames have room.
struct MeshCounts {
    uint64_t vertices = 0;
    uint64_t triangles = 0; // drawn: the faces, or two a quad
    bool overflowed = false;
    uint64_t faces = 0;     // written: triangles, or quads where faceSize is 4
    uint32_t faceSize = 3;
};

// An RGBA8 image, row 0 at the top.
struct Image {
    uint32_t width = 0, height = 0;
    std::vector<uint8_t> rgba;
};
ISOSCOPE_API Status writePng(const Image& image, const std::string& path);

class ISOSCOPE_API Renderer : public detail::Handle<detail::RendererImpl> {
public:
    using Handle::Handle;

    static Result<Renderer> create(Context& context, const RendererOptions& options = {});

    // The objects must outlive the Renderer. Changing what a frame holds
    // rebuilds its passes at the next record().
    Status addSurface(Isosurface& surface, const SurfaceStyle& style = {});
    Status addRaycast(IsoRaycast& raycast);               // at most one raycast or volume rendering
    Status addVolumeRendering(VolumeRendering& rendering);
    void clearScene();

    // Read when a frame records. InvalidArgument for a camera with a
    // non-finite number, eye at the target, fovYDeg outside 1..179, or
    // not 0 < nearPlane < farPlane.
    Status setCamera(const Camera& camera);
    Status setExtent(VkExtent2D extent);  // the host's targets' size (a resized window)

    // Records frame `frame` (0, 1, 2, ... one after another) into `cmd`,
    // which the host has begun and will end and submit on the context's queue.
    Status record(VkCommandBuffer cmd, uint64_t frame, const FrameTargets& targets);
    // GPU milliseconds per pass of the last frame recorded into slot
    // frame % framesInFlight, once the host knows it finished; empty where
    // the queue has no timestamps.
    std::vector<PassTime> passTimes(uint64_t frame);
    // Per surface, in the order added: what the last frame recorded into
    // slot frame % framesInFlight extracted, read (no stall) once the host
    // knows it finished; empty before that slot recorded a frame.
    std::vector<MeshCounts> meshCounts(uint64_t frame);

    // A headless frame at `extent` into targets of its own: submits, waits
    // and reads the colour back.
    Result<Image> renderImage(VkExtent2D extent);
};

} // namespace isoscope::api
