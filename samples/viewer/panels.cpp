#include "panels.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>

#include <imgui.h>

namespace viewer {

const char* const kKeyHelp = "F1 / H   this help\n"
                             "S        screenshot (PNG beside the volume)\n"
                             "M        save the mesh (PLY beside the volume)\n"
                             "R        reload the volume\n"
                             "Home     reset the view\n"
                             "O        orthographic / perspective\n"
                             "V        vsync on / off\n"
                             "Esc      quit\n"
                             "mouse    left: orbit, right or middle: pan, wheel: zoom\n"
                             "drop     a file on the window opens it";

namespace {

const char* typeName(isoscope::api::ScalarType type)
{
    switch (type) {
    case isoscope::api::ScalarType::UInt8: return "uint8";
    case isoscope::api::ScalarType::UInt16: return "uint16";
    case isoscope::api::ScalarType::Int16: return "int16";
    case isoscope::api::ScalarType::Float32: return "float32";
    }
    return "?";
}

void volumeInfo(const ViewerScene& scene)
{
    isoscope::api::VolumeDesc desc = scene.volume->desc();
    std::array<double, 2> range = scene.volume->valueRange();
    ImGui::TextWrapped("%s", scene.source.c_str());
    ImGui::Text("%u x %u x %u %s", desc.dims[0], desc.dims[1], desc.dims[2], typeName(desc.type));
    ImGui::Text("spacing %.4g %.4g %.4g", desc.spacing[0], desc.spacing[1], desc.spacing[2]);
    ImGui::Text("values %.6g .. %.6g", range[0], range[1]);
}

// The histogram under the slider, bin i over the same stretch of values as the slider's.
void histogramPlot(const ViewerScene& scene, const UiState& ui)
{
    std::vector<float> heights(scene.histogram.size());
    for (size_t i = 0; i < heights.size(); ++i)
        heights[i] = ui.logHistogram ? float(std::log1p(double(scene.histogram[i]))) : float(scene.histogram[i]);
    float top = heights.empty() ? 1.0f : *std::max_element(heights.begin(), heights.end());
    ImGui::PlotHistogram("##histogram", heights.data(), int(heights.size()), 0, nullptr, 0.0f, top,
                         ImVec2(ImGui::CalcItemWidth(), 60.0f));
}

void isovaluePanel(const ViewerScene& scene, UiState& ui, UiRequests& requests)
{
    std::array<double, 2> range = scene.volume->valueRange();
    float iso = scene.iso;
    // Every drag sets the next frame's isovalue; the extraction runs in that frame on the GPU.
    if (ImGui::SliderFloat("isovalue", &iso, float(range[0]), float(range[1]), "%.5g"))
        requests.iso = iso;
    histogramPlot(scene, ui);
    ImGui::Checkbox("log scale", &ui.logHistogram);
}

void modePanel(const ViewerScene& scene, UiRequests& requests)
{
    if (ImGui::BeginCombo("mode", modeName(scene.mode))) {
        for (Mode mode : kModes)
            if (ImGui::Selectable(modeName(mode), mode == scene.mode))
                requests.mode = mode;
        ImGui::EndCombo();
    }
    if (ImGui::BeginCombo("method", isoscope::api::methodName(scene.method))) {
        for (isoscope::api::Method method : isoscope::api::methods()) // every extractor the build has
            if (ImGui::Selectable(isoscope::api::methodName(method), method == scene.method))
                requests.method = method;
        ImGui::EndCombo();
    }
    bool weld = scene.weld;
    if (ImGui::Checkbox("weld", &weld))
        requests.weld = weld;
}

// The box the rays sample, per axis over the volume's bounds (world units).
void clipPanel(const ViewerScene& scene, UiRequests& requests)
{
    bool on = scene.clip.has_value();
    auto bounds = scene.volume->bounds();
    if (ImGui::Checkbox("clip box (raycast, dvr)", &on))
        requests.clip = on ? std::optional<isoscope::api::ClipBox>(isoscope::api::ClipBox{bounds[0], bounds[1]})
                           : std::nullopt;
    if (!on)
        return;
    isoscope::api::ClipBox box = *scene.clip;
    bool changed = false;
    const char* names[] = {"x", "y", "z"};
    for (int axis = 0; axis < 3; ++axis) {
        float lo = float(std::max(box.min[axis], bounds[0][axis])), hi = float(std::min(box.max[axis], bounds[1][axis]));
        if (ImGui::DragFloatRange2(names[axis], &lo, &hi, float(bounds[1][axis] - bounds[0][axis]) / 200.0f,
                                   float(bounds[0][axis]), float(bounds[1][axis]), "%.4g", "%.4g",
                                   ImGuiSliderFlags_AlwaysClamp)) {
            box.min[axis] = lo;
            box.max[axis] = hi;
            changed = true;
        }
    }
    if (changed)
        requests.clip = box;
}

void transferFunctionPanel(const ViewerScene& scene, UiState& ui, UiRequests& requests)
{
    const char* shown = scene.transferFunction.empty() ? "(edited)" : scene.transferFunction.c_str();
    if (ImGui::BeginCombo("preset", shown)) {
        for (const std::string& preset : isoscope::api::transferFunctionPresets())
            if (ImGui::Selectable(preset.c_str(), preset == scene.transferFunction))
                requests.transferFunction = preset;
        ImGui::EndCombo();
    }
    TfEditorRequests edits;
    transferFunctionEditor(scene.tfPoints, scene.volume->valueRange(), scene.histogram, ui.logHistogram, ui.tfEditor,
                           edits);
    if (edits.points)
        requests.transferPoints = std::move(edits.points);
    if (edits.load)
        requests.transferFunction = std::move(edits.load);
    if (edits.save)
        requests.saveTransferFunction = std::move(edits.save);
}

std::string mebibytes(uint64_t bytes)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.1f MiB", double(bytes) / double(1u << 20));
    return text;
}

} // namespace

std::string memoryLine(const isoscope::api::DeviceMemory& memory)
{
    std::string line = "memory: isoscope " + mebibytes(memory.isoscopeBytes) + " (peak " +
                       mebibytes(memory.isoscopePeakBytes) + ")";
    if (memory.budgetReported)
        return line + ", device " + mebibytes(memory.usedBytes) + " of " + mebibytes(memory.budgetBytes);
    return line + " of " + mebibytes(memory.budgetBytes) + " (no VK_EXT_memory_budget)";
}

namespace {

void statistics(const ViewerScene& scene, const FrameStats& stats)
{
    ImGui::TextWrapped("%s, subgroup size %u", scene.context.deviceName().c_str(), scene.context.subgroupSize());
    ImGui::TextWrapped("%s", memoryLine(scene.context.memory()).c_str());
    ImGui::Text("frame %.2f ms", stats.frameMs);
    if (scene.mode == Mode::IsoAuto && scene.calibrating)
        ImGui::Text("iso-auto calibrating: one invocation per ray meanwhile");
    else if (scene.mode == Mode::IsoAuto)
        ImGui::Text("iso-auto ran %s", scene.raycast->lastMapping() == isoscope::api::RayMapping::Subgroup
                                           ? "one subgroup per ray (iso-warp)"
                                           : "one invocation per ray (iso-standard)");
    if (stats.mesh)
        ImGui::Text("iso %.5g: %llu %s, %llu vertices%s", stats.meshIso, (unsigned long long)stats.mesh->faces,
                    stats.mesh->faceSize == 4 ? "quads" : "triangles", (unsigned long long)stats.mesh->vertices,
                    stats.mesh->overflowed ? " (growing)" : "");
    for (const isoscope::api::PassTime& pass : stats.passes)
        ImGui::Text("  %-28s %.3f ms", pass.pass.c_str(), pass.ms);
}

} // namespace

void drawLoadProgress(const VolumeLoader::Progress& progress)
{
    ImVec2 size = ImGui::GetIO().DisplaySize;
    ImGui::SetNextWindowPos(ImVec2(size.x * 0.5f, size.y - 16.0f), ImGuiCond_Always, ImVec2(0.5f, 1.0f));
    ImGui::SetNextWindowSize(ImVec2(std::min(size.x - 32.0f, 520.0f), 0.0f));
    ImGui::Begin("loading", nullptr, ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoResize);
    ImGui::TextWrapped("%s", progress.source.c_str());
    ImGui::TextWrapped("%s", progress.what.c_str());
    char overlay[64] = "";
    float fraction = -1.0f * float(ImGui::GetTime()); // ImGui draws a negative fraction as work of unknown length
    if (progress.total > 0) {
        fraction = float(double(progress.done) / double(progress.total));
        if (progress.items.empty())
            std::snprintf(overlay, sizeof overlay, "%.1f of %.1f MiB", double(progress.done) / 1048576.0,
                          double(progress.total) / 1048576.0);
        else
            std::snprintf(overlay, sizeof overlay, "%llu of %llu %s", (unsigned long long)progress.done,
                          (unsigned long long)progress.total, progress.items.c_str());
    }
    ImGui::ProgressBar(fraction, ImVec2(-1.0f, 0.0f), overlay[0] ? overlay : nullptr);
    ImGui::End();
}

void drawCalibrationProgress(const isoscope::api::CalibrationProgress& progress)
{
    ImVec2 size = ImGui::GetIO().DisplaySize;
    ImGui::SetNextWindowPos(ImVec2(size.x * 0.5f, size.y - 16.0f), ImGuiCond_Always, ImVec2(0.5f, 1.0f));
    ImGui::SetNextWindowSize(ImVec2(std::min(size.x - 32.0f, 520.0f), 0.0f));
    ImGui::Begin("calibrating iso-auto", nullptr, ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoResize);
    ImGui::TextWrapped("timing both ray mappings along 21 directions at the window's size");
    char overlay[64] = "";
    float fraction = -1.0f * float(ImGui::GetTime()); // before the first step: of unknown length
    if (progress.total > 0) {
        fraction = float(double(progress.done) / double(progress.total));
        std::snprintf(overlay, sizeof overlay, "%u of %u frames", progress.done, progress.total);
    }
    ImGui::ProgressBar(fraction, ImVec2(-1.0f, 0.0f), overlay[0] ? overlay : nullptr);
    ImGui::End();
}

void drawPanels(const ViewerScene& scene, const FrameStats& stats, UiState& ui, UiRequests& requests)
{
    // 340 wide at (8, 8) whatever its contents: tests exclude that stripe when they compare images.
    ImGui::SetNextWindowPos(ImVec2(8, 8), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSizeConstraints(ImVec2(340, 0), ImVec2(340, FLT_MAX));
    ImGui::Begin("isoscope", nullptr, ImGuiWindowFlags_AlwaysAutoResize);
    volumeInfo(scene);
    ImGui::Separator();
    isovaluePanel(scene, ui, requests);
    modePanel(scene, requests);
    clipPanel(scene, requests);
    if ((scene.mode == Mode::Dvr || scene.mode == Mode::MeshDvr) &&
        ImGui::CollapsingHeader("transfer function", ImGuiTreeNodeFlags_DefaultOpen))
        transferFunctionPanel(scene, ui, requests);
    if (ImGui::Checkbox("vsync", &ui.vsync))
        requests.toggleVsync = true;
    ImGui::SameLine();
    if (ImGui::Checkbox("orthographic", &ui.orthographic))
        requests.toggleOrthographic = true;
    ImGui::SameLine();
    if (ImGui::Button("reset view"))
        requests.resetView = true;
    ImGui::Separator();
    statistics(scene, stats);
    if (!ui.status.empty())
        ImGui::TextWrapped("%s", ui.status.c_str());
    ImGui::End();

    if (ui.showHelp) {
        ImVec2 size = ImGui::GetIO().DisplaySize;
        ImGui::SetNextWindowPos(ImVec2(size.x * 0.5f, size.y * 0.5f), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
        ImGui::Begin("keys", &ui.showHelp, ImGuiWindowFlags_AlwaysAutoResize);
        ImGui::TextUnformatted(kKeyHelp);
        ImGui::End();
    }
}

} // namespace viewer
