#include "viewer_loop.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>

#include "check.h"
#include "frame_output.h"
#include "frame_record.h"
#include "gpu_memory.h"

namespace viewer {
using samplehost::Failure;
using samplehost::require;

namespace {

using Clock = std::chrono::steady_clock;

// The screenshot's buffer, freed on the way out of an exception too.
struct Readback {
    VkDevice device = VK_NULL_HANDLE;
    samplehost::GpuBuffer buffer;
    ~Readback()
    {
        if (buffer.buffer)
            samplehost::destroyBuffer(device, buffer);
    }
};

void updateCamera(ViewerLoop& loop)
{
    if (!loop.scene.loaded())
        return;
    VkExtent2D extent = loop.slots.extent;
    loop.scene.camera = loop.orbit.camera(*loop.scene.volume, float(extent.width) / float(extent.height));
    loop.scene.extent = extent;
    require(loop.scene.renderer->setCamera(loop.scene.camera), "setting the camera");
}

// A new file beside the volume (in the working folder for a synthetic spec).
std::string besideVolume(const std::string& source, const std::string& what, const std::string& extension)
{
    namespace fs = std::filesystem;
    std::error_code error;
    fs::path folder = fs::current_path();
    std::string stem = source;
    if (fs::exists(source, error)) {
        fs::path path = fs::absolute(source, error);
        folder = path.parent_path();
        stem = path.stem().string();
    }
    for (char& c : stem)
        if (c == ':' || c == '/' || c == '*' || c == ' ')
            c = '-';
    for (int n = 1;; ++n) {
        fs::path candidate = folder / (stem + "-" + what + "-" + std::to_string(n) + extension);
        if (!fs::exists(candidate, error))
            return candidate.string();
    }
}

void onDrop(GLFWwindow* glfw, int count, const char** paths)
{
    auto* loop = static_cast<ViewerLoop*>(glfwGetWindowUserPointer(glfw));
    for (int i = 0; i < count; ++i)
        loop->dropped.emplace_back(paths[i]);
}

// Windowed: the load runs on a worker thread while the window draws the
// volume shown (finishLoad takes it in); headless: here. A volume that fails
// to open leaves the one shown (its message in the panel).
void openVolume(ViewerLoop& loop, const std::string& path, std::optional<float> iso)
{
    if (loop.window) {
        if (!loop.loader.start(loop.scene.context, path, loop.scene.method, loop.scene.weld, ViewerScene::kHistogramBins)) {
            loop.ui.status = "still loading " + loop.loader.progress().source + "; " + path + " not opened";
            return;
        }
        loop.pendingIso = iso;
        loop.framesWhileLoading = 0;
        loop.ui.status = "loading " + path;
        return;
    }
    std::optional<isoscope::api::ClipBox> previousClip = loop.scene.clip;
    if (path != loop.scene.source)
        loop.scene.clip.reset(); // a box in another volume's world units
    try {
        loop.scene.load(path, iso);
        loop.ui.status = "opened " + path;
    } catch (const Failure& error) {
        loop.ui.status = error.what();
        loop.scene.clip = previousClip;
    }
    updateCamera(loop);
}

// A load on the worker thread finished: its volume takes the place of the one shown.
void finishLoad(ViewerLoop& loop)
{
    std::optional<VolumeLoader::Outcome> outcome = loop.loader.finished();
    if (!outcome)
        return;
    if (!outcome->loaded) {
        if (!loop.scene.loaded()) { // the volume named on the command line: nothing to show
            waitForDevice(loop.scene.context); // the frames that cleared, before their objects go
            throw Failure(outcome->error);
        }
        loop.ui.status = outcome->error;
        std::printf("not opened: %s\n", outcome->error.c_str());
        return;
    }
    std::string path = outcome->loaded->source;
    std::optional<isoscope::api::ClipBox> previousClip = loop.scene.clip;
    if (path != loop.scene.source)
        loop.scene.clip.reset(); // a box in another volume's world units
    try {
        loop.scene.install(std::move(*outcome->loaded), loop.pendingIso);
        loop.ui.status = "opened " + path;
        // Scripts and tests follow how many frames the window drew meanwhile.
        std::printf("opened %s; %llu frames drawn while it loaded\n", path.c_str(),
                    (unsigned long long)loop.framesWhileLoading);
    } catch (const Failure& error) {
        loop.ui.status = error.what();
        loop.scene.clip = previousClip;
    }
    updateCamera(loop);
}

// The swapchain made again (a new size, vsync toggled), and the targets when the size changed.
void resize(ViewerLoop& loop)
{
    waitForDevice(loop.scene.context);
    loop.window->recreateSwapchain();
    VkExtent2D extent = loop.window->extent;
    if (extent.width == loop.slots.extent.width && extent.height == loop.slots.extent.height)
        return;
    loop.slots.resize(extent);
    loop.imgui->resize();
    std::printf("resized to %ux%u\n", extent.width, extent.height); // scripts and tests follow the window's size
    require(loop.scene.renderer->setExtent(extent), "isoscope::api::Renderer::setExtent");
    updateCamera(loop);
}

void saveMesh(ViewerLoop& loop)
{
    if (!loop.scene.loaded())
        return;
    // A key press may stall: extract() waits for the queue and reads the mesh back.
    std::string path = besideVolume(loop.scene.source, "mesh", ".ply");
    try {
        samplehost::take(loop.scene.surface->extract(loop.scene.iso), "extracting the mesh to save");
        require(loop.scene.surface->writeMesh(path), "writing " + path);
        loop.ui.status = "mesh: " + path;
    } catch (const Failure& error) {
        loop.ui.status = error.what();
    }
}

// Mouse and keys the panels did not take.
void handleInput(ViewerLoop& loop, UiRequests& requests)
{
    ImGuiIO& io = ImGui::GetIO();
    if (!io.WantCaptureMouse) {
        if (ImGui::IsMouseDown(ImGuiMouseButton_Left))
            loop.orbit.rotate(io.MouseDelta.x, io.MouseDelta.y);
        if (ImGui::IsMouseDown(ImGuiMouseButton_Right) || ImGui::IsMouseDown(ImGuiMouseButton_Middle))
            loop.orbit.pan(io.MouseDelta.x, io.MouseDelta.y, io.DisplaySize.y);
        if (io.MouseWheel != 0.0f)
            loop.orbit.wheel(io.MouseWheel);
    }
    if (io.WantCaptureKeyboard)
        return;
    // Dear ImGui 1.86 indexes keys by the GLFW backend's key codes.
    if (ImGui::IsKeyPressed(GLFW_KEY_F1, false) || ImGui::IsKeyPressed(GLFW_KEY_H, false))
        loop.ui.showHelp = !loop.ui.showHelp;
    if (ImGui::IsKeyPressed(GLFW_KEY_S, false))
        loop.screenshotNext = besideVolume(loop.scene.source, "screenshot", ".png");
    if (ImGui::IsKeyPressed(GLFW_KEY_M, false))
        saveMesh(loop);
    if (ImGui::IsKeyPressed(GLFW_KEY_R, false) && loop.scene.loaded())
        loop.dropped.push_back(loop.scene.source);
    if (ImGui::IsKeyPressed(GLFW_KEY_HOME, false))
        requests.resetView = true;
    if (ImGui::IsKeyPressed(GLFW_KEY_O, false)) {
        loop.ui.orthographic = !loop.ui.orthographic;
        requests.toggleOrthographic = true;
    }
    if (ImGui::IsKeyPressed(GLFW_KEY_V, false)) {
        loop.ui.vsync = !loop.ui.vsync;
        requests.toggleVsync = true;
    }
    if (ImGui::IsKeyPressed(GLFW_KEY_ESCAPE, false))
        glfwSetWindowShouldClose(loop.window->glfw, GLFW_TRUE);
}

// A scripted edit, as the editor's mouse makes it (tf_points.h).
void applyEdit(TransferPoints& points, const TfEdit& edit)
{
    auto at = [&edit](const auto& list) {
        for (size_t i = 0; i < list.size(); ++i)
            if (list[i][0] == edit.value)
                return i;
        throw Failure("--script: no transfer-function point at " + std::to_string(edit.value) + " to remove");
    };
    switch (edit.kind) {
    case TfEdit::Opacity: setOpacityPoint(points, edit.value, edit.data[0]); break;
    case TfEdit::Color: setColorPoint(points, edit.value, edit.data); break;
    case TfEdit::RemoveOpacity: removeOpacityPoint(points, at(points.opacity)); break;
    case TfEdit::RemoveColor: removeColorPoint(points, at(points.color)); break;
    }
}

void scriptRequests(ViewerLoop& loop, const ScriptStep& step, UiRequests& requests)
{
    requests.iso = step.iso;
    requests.mode = step.mode;
    requests.method = step.method;
    requests.weld = step.weld;
    requests.open = step.open;
    requests.clip = step.clip;
    requests.transferFunction = step.transferFunction;
    requests.saveTransferFunction = step.tfSave;
    if (!step.tfEdits.empty()) {
        TransferPoints points = loop.scene.tfPoints;
        for (const TfEdit& edit : step.tfEdits)
            applyEdit(points, edit);
        requests.transferPoints = points;
    }
    if (step.resize && loop.window) {
        glfwSetWindowSize(loop.window->glfw, int(step.resize->width), int(step.resize->height));
        // The window system takes the size when it gets to it: the script waits for it, not a frame count.
        loop.awaitedSize = step.resize;
        loop.awaitedUntil = Clock::now() + std::chrono::seconds(20);
    }
}

// Whether a scripted resize is still on its way; after 20 s the script goes on at the size the window has.
bool awaitingResize(ViewerLoop& loop)
{
    if (!loop.awaitedSize)
        return false;
    VkExtent2D want = *loop.awaitedSize, have = loop.slots.extent;
    if (want.width == have.width && want.height == have.height) {
        loop.awaitedSize.reset();
        return false;
    }
    if (Clock::now() < loop.awaitedUntil)
        return true;
    std::fprintf(stderr, "isoscope-viewer: the window did not take the scripted size %ux%u in 20 s; the script goes on at %ux%u\n",
                 want.width, want.height, have.width, have.height);
    loop.awaitedSize.reset();
    return false;
}

// Returns whether the swapchain must be made again (vsync toggled).
bool applyRequests(ViewerLoop& loop, const UiRequests& requests)
{
    ViewerScene& scene = loop.scene;
    try {
        if (!scene.loaded() && (requests.method || requests.weld || requests.mode || requests.transferFunction ||
                                requests.transferPoints || requests.saveTransferFunction || requests.clip ||
                                requests.iso))
            throw Failure("no volume yet: " + loop.loader.progress().source + " is loading");
        if (requests.method)
            scene.setMethod(*requests.method);
        if (requests.weld)
            scene.setWeld(*requests.weld);
        if (requests.mode && *requests.mode != scene.mode)
            scene.setMode(*requests.mode);
        if (requests.transferFunction || requests.transferPoints)
            waitForDevice(loop.scene.context); // frames in flight read the table it replaces
        if (requests.transferFunction)
            scene.setTransferFunction(*requests.transferFunction);
        if (requests.transferPoints)
            scene.setTransferPoints(*requests.transferPoints);
        if (requests.saveTransferFunction) {
            require(isoscope::api::writeTransferFunction(scene.tfPoints, *requests.saveTransferFunction),
                    "saving the transfer function");
            loop.ui.status = "transfer function: " + *requests.saveTransferFunction;
            std::printf("transfer function saved: %s\n", requests.saveTransferFunction->c_str());
        }
        if (requests.clip)
            scene.setClip(*requests.clip);
        if (requests.iso)
            scene.setIsovalue(*requests.iso);
    } catch (const Failure& error) {
        loop.ui.status = error.what();
    }
    if (requests.toggleOrthographic)
        loop.orbit.orthographic = loop.ui.orthographic;
    if (requests.resetView) {
        loop.orbit = Orbit{loop.options.camera[0], loop.options.camera[1]};
        loop.orbit.orthographic = loop.ui.orthographic;
    }
    if (requests.toggleVsync && loop.window) {
        loop.window->vsync = loop.ui.vsync;
        return true;
    }
    return false;
}

// Frame `finished` is done on the GPU (its slot's fence was waited).
void collectStats(ViewerLoop& loop, uint64_t finished)
{
    loop.stats.passes = loop.scene.renderer->passTimes(finished);
    std::vector<isoscope::api::MeshCounts> counts = loop.scene.renderer->meshCounts(finished);
    loop.stats.mesh.reset();
    if (!counts.empty())
        loop.stats.mesh = counts[0];
    loop.stats.meshIso = loop.slotIso[finished % loop.slotIso.size()];
}

void writeScreenshot(const samplehost::GpuBuffer& buffer, VkExtent2D extent, const std::string& path)
{
    isoscope::api::Image image{extent.width, extent.height, {}};
    image.rgba.resize(size_t(extent.width) * extent.height * 4);
    std::memcpy(image.rgba.data(), buffer.mapped, image.rgba.size());
    require(isoscope::api::writePng(image, path), "writing the screenshot " + path);
}

// iso-auto's calibration, a few frames of it between the window's (which
// meanwhile draw one invocation per ray): the window never waits for all of it.
void calibrateBetweenFrames(ViewerLoop& loop)
{
    if (!loop.scene.calibrating)
        return;
    try {
        // About a frame at 40 fps of calibration per window frame.
        if (loop.scene.stepCalibration(25.0)) {
            loop.ui.status = "iso-auto calibrated";
            std::printf("iso-auto calibrated; %llu frames drawn while it calibrated\n",
                        (unsigned long long)loop.framesWhileCalibrating);
        }
    } catch (const Failure& error) {
        loop.ui.status = error.what();
        std::printf("%s\n", error.what());
    }
}

} // namespace

LoopResult runViewer(ViewerLoop& loop)
{
    const uint64_t inFlight = loop.slots.slots.size();
    samplehost::Window* window = loop.window;
    loop.slotIso.assign(inFlight, loop.scene.iso);
    loop.orbit.azimuthDeg = loop.options.camera[0];
    loop.orbit.elevationDeg = loop.options.camera[1];
    if (window) {
        glfwSetWindowUserPointer(window->glfw, &loop);
        glfwSetDropCallback(window->glfw, onDrop);
        loop.ui.vsync = window->vsync;
        if (!loop.scene.loaded()) // the window draws, with the progress, while it loads
            openVolume(loop, loop.options.volume, loop.options.iso);
    }
    uint64_t limit = loop.options.frames.value_or(window ? UINT64_MAX : 10);
    Readback readback{loop.host.device};
    Clock::time_point last = Clock::now();
    uint64_t frame = 0;
    uint64_t rendered = 0; // the Renderer's frames: none before the first volume
    // Frames while a volume loads or iso-auto calibrates do not count towards --frames or move --script on.
    uint64_t step = 0;
    while (step < limit && !(window && window->shouldClose())) {
        if (window)
            window->pollEvents();
        finishLoad(loop);
        bool loading = loop.loader.busy(), calibrating = loop.scene.calibrating;
        bool scripted = !loading && !calibrating && !awaitingResize(loop);
        loop.slots.waitForSlot(frame);
        // Renderer frame n - inFlight was recorded in a loop frame the slot waits covered.
        if (rendered >= inFlight)
            collectStats(loop, rendered - inFlight);
        samplehost::FrameSlot& slot = loop.slots[frame];

        uint32_t imageIndex = 0;
        VkResult acquired = VK_SUCCESS;
        if (window) {
            acquired = vkAcquireNextImageKHR(loop.host.device, window->swapchain, UINT64_MAX, slot.imageAcquired,
                                             VK_NULL_HANDLE, &imageIndex);
            if (acquired == VK_ERROR_OUT_OF_DATE_KHR) {
                resize(loop); // the semaphore was not signalled: the slot stays as it was
                continue;
            }
            if (acquired != VK_SUBOPTIMAL_KHR) // suboptimal still acquired an image: draw it, resize after
                VK_CHECK(acquired);
        }

        UiRequests requests;
        if (scripted && step < loop.script.size())
            scriptRequests(loop, loop.script[step], requests);
        if (loop.imgui) {
            loop.imgui->newFrame();
            handleInput(loop, requests);
            if (loop.scene.loaded())
                drawPanels(loop.scene, loop.stats, loop.ui, requests);
            if (loading)
                drawLoadProgress(loop.loader.progress());
            if (calibrating)
                drawCalibrationProgress(loop.scene.calibration);
        }
        bool remakeSwapchain = applyRequests(loop, requests);
        if (requests.open)
            loop.dropped.push_back(*requests.open);
        if (!loop.dropped.empty()) {
            std::string path = loop.dropped.back();
            loop.dropped.clear();
            openVolume(loop, path, path == loop.scene.source ? std::optional<float>(loop.scene.iso) : std::nullopt);
        }
        updateCamera(loop);
        calibrateBetweenFrames(loop);

        std::string screenshot = loop.screenshotNext;
        if (screenshot.empty() && scripted && step + 1 == limit)
            screenshot = loop.options.screenshot;
        VkExtent2D extent = loop.slots.extent;
        VkDeviceSize bytes = VkDeviceSize(extent.width) * extent.height * 4;
        if (!screenshot.empty() && readback.buffer.size != bytes) {
            if (readback.buffer.buffer)
                samplehost::destroyBuffer(loop.host.device, readback.buffer);
            readback.buffer = samplehost::createReadbackBuffer(loop.host.physical, loop.host.device, bytes);
        }

        samplehost::beginSlot(loop.host.device, slot);
        FrameCommands commands;
        bool draws = loop.scene.loaded();
        commands.frame = rendered;
        commands.slotFrame = frame;
        commands.extent = extent;
        commands.renderer = draws ? &*loop.scene.renderer : nullptr;
        commands.imgui = loop.imgui;
        commands.swapchainImage = window ? window->images[imageIndex] : VK_NULL_HANDLE;
        commands.swapchainExtent = window ? window->extent : VkExtent2D{};
        commands.readback = screenshot.empty() ? nullptr : &readback.buffer;
        recordFrame(slot, commands);
        if (draws)
            loop.slotIso[rendered++ % inFlight] = loop.scene.iso;
        VkSemaphore renderDone = window ? window->renderDone[imageIndex] : VK_NULL_HANDLE;
        {
            std::lock_guard queue(loop.scene.context.queueMutex()); // a volume may be loading on another thread
            samplehost::submitSlot(loop.host.device, loop.host.queue, slot, window ? slot.imageAcquired : VK_NULL_HANDLE,
                                   renderDone);
        }
        if (!screenshot.empty()) {
            loop.slots.waitForSlot(frame); // a screenshot may stall: it is one frame
            writeScreenshot(readback.buffer, extent, screenshot);
            loop.ui.status = "screenshot: " + screenshot;
            std::printf("screenshot: %s\n", screenshot.c_str());
            loop.screenshotNext.clear();
        }

        VkResult presented = VK_SUCCESS;
        if (window) {
            std::lock_guard queue(loop.scene.context.queueMutex());
            presented = samplehost::presentImage(loop.host.queue, *window, imageIndex, renderDone);
        }
        ++frame;
        if (scripted)
            ++step;
        if (loading)
            ++loop.framesWhileLoading;
        if (calibrating)
            ++loop.framesWhileCalibrating;
        Clock::time_point now = Clock::now();
        loop.stats.frameMs = std::chrono::duration<double, std::milli>(now - last).count();
        last = now;
        if (!window)
            continue;
        VkExtent2D size = window->framebufferExtent();
        bool resized = size.width != window->extent.width || size.height != window->extent.height;
        if (presented == VK_ERROR_OUT_OF_DATE_KHR || presented == VK_SUBOPTIMAL_KHR || acquired == VK_SUBOPTIMAL_KHR ||
            resized || remakeSwapchain)
            resize(loop);
        else
            VK_CHECK(presented);
    }
    for (uint64_t f = 0; f < inFlight && f < frame; ++f)
        loop.slots.waitForSlot(f);
    loop.loader.wait(); // a load in flight when the window closed: its objects go before the context
    loop.loader.finished();

    LoopResult result{frame};
    if (rendered > 0) {
        std::vector<isoscope::api::MeshCounts> counts = loop.scene.renderer->meshCounts(rendered - 1);
        if (!counts.empty())
            result.lastMesh = counts[0];
        result.lastIso = loop.slotIso[(rendered - 1) % inFlight];
    }
    return result;
}

} // namespace viewer
