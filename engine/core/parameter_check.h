#pragma once
// Checks of numeric parameters, shared by the engine's API and the command
// line, so that both refuse the same values with the same words.
//
// A number that must be finite is finite (NaN, ±inf and 1e400 are refused,
// never compared: every comparison with NaN is false, so a range check alone
// lets it through); an integer is read without sign, wrap-around or base
// prefixes ("-1" is not 2^64-1, "4294967297" is not 1, "010" is 10).
//
//     double fov = 0;
//     if (!parseFiniteNumber("40", fov)) ...
//     checkParameter("--fov", fov, 1.0, 170.0); // throws Error: "--fov is nan: give a finite number from 1 to 170"
#include <cstdint>
#include <string>
#include <string_view>

namespace isoscope {

// The whole of `text` as a finite decimal number (no spaces, no leading '+');
// false for "", "nan", "inf", "1e400" (out of double's range) and "1x".
bool parseFiniteNumber(std::string_view text, double& value);

// The whole of `text` as an unsigned decimal integer (digits only); false for
// "", "-1", "+1", "0x10" and a number above `max` (no wrap-around).
bool parseUnsignedInteger(std::string_view text, uint64_t max, uint64_t& value);

// A number as a message shows it: "0.5", "1e+06", "nan", "inf".
std::string formatNumber(double value);

// "" when `text` is a finite number from min to max (inclusive), else the
// reason, with the value and the range: "'nan' is not a finite number: give one from 1 to 170".
std::string whyNotFiniteInRange(std::string_view text, double min, double max);
// "" when `text` is an unsigned integer from min to max, else the reason, with the range.
std::string whyNotIntegerInRange(std::string_view text, uint64_t min, uint64_t max);

// Throws Error "`name` is `value`: give a finite number from `min` to `max`"
// unless value is finite and in range. For the engine's API, where the value
// arrives as a number.
void checkParameter(std::string_view name, double value, double min, double max);
// The same without a range: "isovalue is nan: give a finite number".
void checkFinite(std::string_view name, double value);

} // namespace isoscope
