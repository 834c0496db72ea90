#pragma once
// Reading transfer functions from the files users bring.
//
// ParaView: the JSON that "Save current colormap/opacity as preset"/"Export"
// writes, a list of presets (the first is taken) or one object, with
// `RGBPoints` (value, r, g, b, …) and, optionally, `Points` (value, alpha,
// midpoint, sharpness, …; midpoint and sharpness other than 0.5 / 0 are
// applied as linear, with a warning). Without `Points`, opacity is a ramp
// from 0 to 1 over the colour range. `Name` becomes the name.
//
// Text: one control point a line, `value r g b a` (components 0..1), blank
// lines and `#` comments ignored; points sorted by value.
//
// Writing (writeTransferFunction) produces what these read back: ParaView
// JSON exactly (every colour and opacity point, midpoints 0.5, sharpness 0);
// text as one line at each distinct value of either list, colour and
// opacity taken there (the same function wherever neither list steps).
//
// Every error is an Error naming the file (and the line, for text; the key or
// array index, for JSON) and what is wrong.
#include <string>
#include <string_view>

#include "dvr/transfer_function.h"

namespace isoscope {

// By extension: .json → ParaView, anything else → text.
TransferFunction readTransferFunction(const std::string& path);
TransferFunction parseParaViewTransferFunction(std::string_view json, const std::string& source);
TransferFunction parseTextTransferFunction(std::string_view text, const std::string& source);

// By extension as readTransferFunction; throws Error naming the file when it cannot be written.
void writeTransferFunction(const TransferFunction& tf, const std::string& path);
std::string formatParaViewTransferFunction(const TransferFunction& tf);
std::string formatTextTransferFunction(const TransferFunction& tf);

} // namespace isoscope
