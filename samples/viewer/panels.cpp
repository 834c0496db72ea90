#include "panels.h"

#include <algorithm>
#include <cfloat>
#include <cmath>

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
        for (auto method : {isoscope::api::Method::Block, isoscope::api::Method::Scan, isoscope::api::Method::HistoPyramid})
            if (ImGui::Selectable(isoscope::api::methodName(method), method == scene.method))
                requests.method = method;
        ImGui::EndCombo();
    }
    bool weld = scene.weld;
    if (ImGui::Checkbox("weld", &weld))
        requests.weld = weld;
    if (ImGui::BeginCombo("transfer fn", scene.transferFunction.c_str())) {
        for (const std::string& preset : isoscope::api::transferFunctionPresets())
            if (ImGui::Selectable(preset.c_str(), preset == scene.transferFunction))
                requests.transferFunction = preset;
        ImGui::EndCombo();
    }
}

void statistics(const ViewerScene& scene, const FrameStats& stats)
{
    ImGui::TextWrapped("%s, subgroup size %u", scene.context.deviceName().c_str(), scene.context.subgroupSize());
    ImGui::Text("frame %.2f ms", stats.frameMs);
    if (stats.mesh)
        ImGui::Text("iso %.5g: %llu triangles, %llu vertices%s", stats.meshIso,
                    (unsigned long long)stats.mesh->triangles, (unsigned long long)stats.mesh->vertices,
                    stats.mesh->overflowed ? " (growing)" : "");
    for (const isoscope::api::PassTime& pass : stats.passes)
        ImGui::Text("  %-28s %.3f ms", pass.pass.c_str(), pass.ms);
}

} // namespace

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
