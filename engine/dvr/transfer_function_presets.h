#pragma once
// Built-in transfer functions (`--tf NAME`), made for a volume's value range:
//   ct         bone and soft tissue: in Hounsfield units where the volume
//              holds them (its minimum at or below −500), otherwise over the
//              value range (air transparent, soft tissue translucent, dense
//              material opaque)
//   grayscale  a black-to-white ramp over the value range, opacity rising with it
//   cayley     the synthetic fields (cayley, sphere…): a thin shell either side of zero
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dvr/transfer_function.h"

namespace isoscope {

std::vector<std::string> transferFunctionPresetNames();
std::optional<TransferFunction> transferFunctionPreset(std::string_view name, float valueMin, float valueMax);
// A preset name or, failing that, a file (readTransferFunction); throws Error
// listing the presets when it is neither.
TransferFunction resolveTransferFunction(const std::string& nameOrPath, float valueMin, float valueMax);

} // namespace isoscope
