#pragma once
// The transfer-function editor: opacity control points drawn as a line over
// the volume's histogram and colour control points on a gradient strip under
// it, over the volume's value range. Left-drag moves a point, a double-click
// adds one (on the strip: a colour point, with the colour there), a right-
// click removes one; the colour picker edits the selected colour point.
// Load and save read and write a ParaView .json or a text file (what
// `--tf FILE` and isoscope render read). It returns edits as requests;
// the frame loop applies them between frames.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tf_points.h"

namespace viewer {

struct TfEditorState {
    int dragOpacity = -1, dragColor = -1; // the point being dragged, or -1
    int selectedColor = 0;
    std::array<char, 512> path{"transfer-function.json"};
};

struct TfEditorRequests {
    std::optional<TransferPoints> points; // edited points
    std::optional<std::string> load;      // a preset or file to read
    std::optional<std::string> save;      // a file to write the points to
};

// `range`: the value range the canvas spans (the volume's); `histogram`: bin counts over it.
void transferFunctionEditor(const TransferPoints& points, const std::array<double, 2>& range,
                            const std::vector<uint64_t>& histogram, bool logHistogram, TfEditorState& state,
                            TfEditorRequests& requests);

} // namespace viewer
