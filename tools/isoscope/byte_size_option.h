#pragma once
// A number of bytes as typed (--device-budget): a whole number with an
// optional unit, 2GiB, 512MiB, 1.5GiB, 4G (binary, as GiB), 3GB (decimal),
// 1000000 (bytes). CLI11 names the option in front of the message.
#include <cstdint>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

namespace isoscope::cli {

// The bytes `text` says, or nullopt with `why` set (the value, the forms
// accepted): zero, negative, non-finite, unknown units and sizes past 2^60
// are refused.
std::optional<uint64_t> parseByteSize(const std::string& text, std::string* why = nullptr);
CLI::Validator byteSizeValidator();

} // namespace isoscope::cli
