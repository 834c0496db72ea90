#include "tf_editor.h"

#include <algorithm>
#include <cmath>

#include <imgui.h>

namespace viewer {
namespace {

constexpr float kCurveHeight = 90.0f, kStripHeight = 14.0f, kHandle = 4.5f, kPick = 7.0f;

// Where values and opacities lie on the canvas.
struct Canvas {
    ImVec2 origin, size; // the curve's area; the strip lies under it
    double lo = 0.0, hi = 1.0;

    float x(double value) const { return origin.x + float((value - lo) / (hi - lo)) * size.x; }
    float y(double alpha) const { return origin.y + (1.0f - float(alpha)) * size.y; }
    double value(float px) const { return lo + double((px - origin.x) / size.x) * (hi - lo); }
    double alpha(float py) const { return std::clamp(1.0 - double((py - origin.y) / size.y), 0.0, 1.0); }
    float stripTop() const { return origin.y + size.y + 2.0f; }
};

ImU32 rgb(const std::array<double, 3>& c, float alpha = 1.0f)
{
    return ImGui::ColorConvertFloat4ToU32(ImVec4(float(c[0]), float(c[1]), float(c[2]), alpha));
}

void drawHistogram(ImDrawList& draw, const Canvas& canvas, const std::vector<uint64_t>& histogram, bool log)
{
    double top = 0.0;
    auto height = [log](uint64_t n) { return log ? std::log1p(double(n)) : double(n); };
    for (uint64_t n : histogram)
        top = std::max(top, height(n));
    float width = canvas.size.x / float(std::max<size_t>(histogram.size(), 1));
    for (size_t i = 0; i < histogram.size() && top > 0.0; ++i) {
        float x = canvas.origin.x + float(i) * width;
        float h = float(height(histogram[i]) / top) * canvas.size.y;
        draw.AddRectFilled(ImVec2(x, canvas.origin.y + canvas.size.y - h), ImVec2(x + width, canvas.origin.y + canvas.size.y),
                           IM_COL32(110, 110, 120, 160));
    }
}

void drawFunction(ImDrawList& draw, const Canvas& canvas, const TransferPoints& points, int selectedColor)
{
    // The gradient strip, a column of colour every two pixels.
    for (float x = 0.0f; x < canvas.size.x; x += 2.0f) {
        double value = canvas.value(canvas.origin.x + x);
        draw.AddRectFilled(ImVec2(canvas.origin.x + x, canvas.stripTop()),
                           ImVec2(canvas.origin.x + x + 2.0f, canvas.stripTop() + kStripHeight),
                           rgb(colorAt(points, value)));
    }
    for (size_t i = 0; i < points.color.size(); ++i) {
        float x = canvas.x(points.color[i][0]);
        ImU32 edge = int(i) == selectedColor ? IM_COL32(255, 255, 0, 255) : IM_COL32(255, 255, 255, 255);
        draw.AddRectFilled(ImVec2(x - kHandle, canvas.stripTop() - 1), ImVec2(x + kHandle, canvas.stripTop() + kStripHeight + 1),
                           rgb({points.color[i][1], points.color[i][2], points.color[i][3]}));
        draw.AddRect(ImVec2(x - kHandle, canvas.stripTop() - 1), ImVec2(x + kHandle, canvas.stripTop() + kStripHeight + 1), edge);
    }
    // The opacity line, from the canvas's left edge to its right (ends clamp).
    std::vector<ImVec2> line{ImVec2(canvas.origin.x, canvas.y(opacityAt(points, canvas.lo)))};
    for (const auto& p : points.opacity)
        if (p[0] > canvas.lo && p[0] < canvas.hi)
            line.emplace_back(canvas.x(p[0]), canvas.y(p[1]));
    line.emplace_back(canvas.origin.x + canvas.size.x, canvas.y(opacityAt(points, canvas.hi)));
    draw.AddPolyline(line.data(), int(line.size()), IM_COL32(255, 255, 255, 230), 0, 1.5f);
    for (const auto& p : points.opacity)
        draw.AddCircleFilled(ImVec2(canvas.x(p[0]), canvas.y(p[1])), kHandle, rgb(colorAt(points, p[0])));
}

// The opacity point under the mouse, or -1.
int opacityUnder(const Canvas& canvas, const TransferPoints& points, ImVec2 mouse)
{
    for (size_t i = 0; i < points.opacity.size(); ++i)
        if (std::abs(canvas.x(points.opacity[i][0]) - mouse.x) < kPick &&
            std::abs(canvas.y(points.opacity[i][1]) - mouse.y) < kPick)
            return int(i);
    return -1;
}

int colorUnder(const Canvas& canvas, const TransferPoints& points, ImVec2 mouse)
{
    if (mouse.y < canvas.stripTop() - 2.0f)
        return -1;
    for (size_t i = 0; i < points.color.size(); ++i)
        if (std::abs(canvas.x(points.color[i][0]) - mouse.x) < kPick)
            return int(i);
    return -1;
}

// Mouse edits on the canvas; returns whether the points changed.
bool editWithMouse(const Canvas& canvas, TransferPoints& points, TfEditorState& state)
{
    ImVec2 mouse = ImGui::GetIO().MousePos;
    bool onStrip = mouse.y >= canvas.stripTop() - 2.0f;
    bool changed = false;
    if (ImGui::IsItemHovered() && ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
        state.dragOpacity = onStrip ? -1 : opacityUnder(canvas, points, mouse);
        state.dragColor = onStrip ? colorUnder(canvas, points, mouse) : -1;
        if (state.dragColor >= 0)
            state.selectedColor = state.dragColor;
    }
    if (ImGui::IsItemHovered() && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) {
        double value = std::clamp(canvas.value(mouse.x), canvas.lo, canvas.hi);
        if (onStrip)
            state.selectedColor = state.dragColor = int(setColorPoint(points, value, colorAt(points, value)));
        else
            state.dragOpacity = int(setOpacityPoint(points, value, canvas.alpha(mouse.y)));
        changed = true;
    }
    if (ImGui::IsItemActive() && ImGui::IsMouseDragging(ImGuiMouseButton_Left, 0.0f)) {
        double value = std::clamp(canvas.value(mouse.x), canvas.lo, canvas.hi);
        if (state.dragOpacity >= 0 && size_t(state.dragOpacity) < points.opacity.size()) {
            moveOpacityPoint(points, size_t(state.dragOpacity), value, canvas.alpha(mouse.y));
            changed = true;
        } else if (state.dragColor >= 0 && size_t(state.dragColor) < points.color.size()) {
            moveColorPoint(points, size_t(state.dragColor), value);
            changed = true;
        }
    }
    if (!ImGui::IsMouseDown(ImGuiMouseButton_Left))
        state.dragOpacity = state.dragColor = -1;
    if (ImGui::IsItemHovered() && ImGui::IsMouseClicked(ImGuiMouseButton_Right)) {
        int opacity = onStrip ? -1 : opacityUnder(canvas, points, mouse);
        int color = onStrip ? colorUnder(canvas, points, mouse) : -1;
        changed = (opacity >= 0 && removeOpacityPoint(points, size_t(opacity))) ||
                  (color >= 0 && removeColorPoint(points, size_t(color)));
        state.selectedColor = std::min(state.selectedColor, int(points.color.size()) - 1);
    }
    return changed;
}

} // namespace

void transferFunctionEditor(const TransferPoints& current, const std::array<double, 2>& range,
                            const std::vector<uint64_t>& histogram, bool logHistogram, TfEditorState& state,
                            TfEditorRequests& requests)
{
    TransferPoints points = current;
    Canvas canvas;
    canvas.origin = ImGui::GetCursorScreenPos();
    canvas.size = ImVec2(ImGui::CalcItemWidth(), kCurveHeight);
    canvas.lo = range[0];
    canvas.hi = range[1] > range[0] ? range[1] : range[0] + 1.0;
    ImGui::InvisibleButton("##transfer function", ImVec2(canvas.size.x, kCurveHeight + kStripHeight + 4.0f),
                           ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonRight);
    bool changed = editWithMouse(canvas, points, state);
    ImDrawList& draw = *ImGui::GetWindowDrawList();
    draw.AddRectFilled(canvas.origin, ImVec2(canvas.origin.x + canvas.size.x, canvas.origin.y + canvas.size.y),
                       IM_COL32(30, 30, 36, 255));
    drawHistogram(draw, canvas, histogram, logHistogram);
    drawFunction(draw, canvas, points, state.selectedColor);

    state.selectedColor = std::clamp(state.selectedColor, 0, int(points.color.size()) - 1);
    auto& selected = points.color[size_t(state.selectedColor)];
    float color[3] = {float(selected[1]), float(selected[2]), float(selected[3])};
    if (ImGui::ColorEdit3("point colour", color)) {
        setColorPoint(points, selected[0], {color[0], color[1], color[2]});
        changed = true;
    }
    ImGui::TextDisabled("drag: move, double-click: add, right-click: remove");
    ImGui::InputText("##tf path", state.path.data(), state.path.size());
    ImGui::SameLine();
    if (ImGui::Button("load"))
        requests.load = std::string(state.path.data());
    ImGui::SameLine();
    if (ImGui::Button("save"))
        requests.save = std::string(state.path.data());
    if (changed)
        requests.points = std::move(points);
}

} // namespace viewer
