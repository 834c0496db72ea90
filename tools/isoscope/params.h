#pragma once
// The command line's one validation layer for numbers: every numeric option
// is checked as the user typed it, before CLI11 converts it, by the rules of
// core/parameter_check.h (finite, in range, no sign or wrap-around for
// counts). A refusal is a usage error: one line naming the option, the value
// and the range, exit code 2.
//
//     command->add_option("--fov", fov)->check(finiteNumber(1.0, 170.0));
//     command->add_option("--repeat", repeat)->check(wholeNumber(1, kMaxRepeat));
#include <cstdint>
#include <string>

#include <CLI/CLI.hpp>

namespace isoscope::cli {

// A float32 isovalue: finite as a double and as the float the engine uses.
constexpr double kMaxIsovalue = 3.4028234663852886e38;
// Timed and untimed runs: a million is hours of any benchmark; more is a typo.
constexpr uint64_t kMaxRuns = 1000000;
// Bytes per second for a benchmark's floor estimate: 1 MB/s to 10 PB/s.
constexpr double kMinBandwidth = 1e6, kMaxBandwidth = 1e16;
// A raw file's spacing and a camera distance, in world units: positive, and
// small and large enough for any real data without float overflow in the view.
constexpr double kMinSpacing = 1e-30, kMaxSpacing = 1e30;
constexpr double kMinCameraDistance = 1e-30, kMaxCameraDistance = 1e30;
// Taubin smoothing iterations (extract --smooth): each is two passes over
// every edge, so ten thousand is minutes on a large mesh; more is a typo.
constexpr uint64_t kMaxSmoothIterations = 10000;
// The largest Standard raycast tile side: no device runs a workgroup wider.
constexpr uint32_t kMaxTileSide = 1024;

// A finite number from min to max (inclusive), as typed: "nan", "inf",
// "1e400", "" and "1x" are refused. `part` names the element of an option
// with several ("elevation" of --camera) in the message.
CLI::Validator finiteNumber(double min, double max, const std::string& part = "");
// A decimal whole number from min to max: "-1", "0x10", "1.5" and values past
// max (even past 2^64) are refused, never wrapped.
CLI::Validator wholeNumber(uint64_t min, uint64_t max);
// After wholeNumber: a multiple of `step`; `range` words the whole range for the message.
CLI::Validator multipleOf(uint64_t step, const std::string& range);
// A fraction above 0, at most 1 (extract --simplify): finite as for
// finiteNumber, and 0 refused, since keeping no triangles is no simplification.
CLI::Validator positiveFraction();
// A DICOM UID (--series): 1 to 64 characters of digits and '.', as DICOM
// PS3.5 section 9.1 defines them; anything else matches no series.
CLI::Validator dicomUid();
// --block: three sizes XxYxZ, each 1 to 1024.
CLI::Validator blockSize();

// Throws the usage error that main turns into one line and exit code 2, for
// checks that need more than one option's value.
[[noreturn]] void usageError(const std::string& option, const std::string& message);

} // namespace isoscope::cli
