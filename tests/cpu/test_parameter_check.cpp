// Parameter checks (core/parameter_check.h): what the CLI and the API refuse
// alike. Non-finite numbers, values past a type's range and signs where none
// belongs are refused, never wrapped or compared.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "core/error.h"
#include "core/parameter_check.h"
#include "core/warm_up.h"

using namespace isoscope;
using Catch::Matchers::Contains;

TEST_CASE("finite numbers parse; NaN, infinities, overflow, empty and trailing text do not", "[parameters]")
{
    double value = 42.0;
    CHECK(parseFiniteNumber("0.5", value));
    CHECK(value == 0.5);
    CHECK(parseFiniteNumber("-0.012", value));
    CHECK(value == -0.012);
    CHECK(parseFiniteNumber("1e300", value));
    CHECK(value == 1e300);
    value = 42.0;
    for (const char* bad : {"nan", "NaN", "-nan", "inf", "-inf", "infinity", "1e400", "-1e400", "", " 1", "1 ",
                            "1x", "0x10", "+1", "--1", "1,5"}) {
        INFO(bad);
        CHECK_FALSE(parseFiniteNumber(bad, value));
        CHECK(value == 42.0); // left as it was
    }
}

TEST_CASE("unsigned integers parse in decimal without sign or wrap-around", "[parameters]")
{
    uint64_t value = 7;
    CHECK(parseUnsignedInteger("4294967295", 0xFFFFFFFFull, value));
    CHECK(value == 4294967295ull);
    CHECK(parseUnsignedInteger("010", 100, value));
    CHECK(value == 10); // decimal, not octal
    CHECK(parseUnsignedInteger("18446744073709551615", UINT64_MAX, value));
    CHECK(value == UINT64_MAX);
    value = 7;
    for (const char* bad : {"4294967296", "4294967297", "-1", "+1", "0x10", "", "1.0", "1e3", " 1", "18446744073709551616"}) {
        INFO(bad);
        CHECK_FALSE(parseUnsignedInteger(bad, 0xFFFFFFFFull, value));
        CHECK(value == 7);
    }
}

TEST_CASE("range messages name the value given and the allowed range", "[parameters]")
{
    CHECK(whyNotFiniteInRange("40", 1, 170).empty());
    CHECK(whyNotFiniteInRange("1", 1, 170).empty());
    CHECK_THAT(whyNotFiniteInRange("nan", 1, 170), Contains("'nan'") && Contains("not a finite number") && Contains("from 1 to 170"));
    CHECK_THAT(whyNotFiniteInRange("1e400", 1, 170), Contains("'1e400'") && Contains("from 1 to 170"));
    CHECK_THAT(whyNotFiniteInRange("", 1, 170), Contains("''") && Contains("not a finite number"));
    CHECK_THAT(whyNotFiniteInRange("171", 1, 170), Contains("'171' is out of range") && Contains("from 1 to 170"));
    CHECK(whyNotIntegerInRange("1", 1, 1000000).empty());
    CHECK_THAT(whyNotIntegerInRange("0", 1, 1000000), Contains("'0' is out of range") && Contains("from 1 to 1000000"));
    CHECK_THAT(whyNotIntegerInRange("-1", 0, 10), Contains("'-1' is not a whole number"));
    CHECK_THAT(whyNotIntegerInRange("4294967297", 1, 16384), Contains("'4294967297' is out of range") && Contains("16384"));
    // A message is one line, however the value was typed.
    CHECK(whyNotFiniteInRange("1\n2", 0, 1).find('\n') == std::string::npos);
}

TEST_CASE("checkParameter refuses non-finite and out-of-range numbers, naming the parameter", "[parameters]")
{
    CHECK_NOTHROW(checkParameter("fov", 40.0, 1.0, 170.0));
    CHECK_THROWS_WITH(checkParameter("fov", std::nan(""), 1.0, 170.0), Contains("fov is nan") && Contains("from 1 to 170"));
    CHECK_THROWS_WITH(checkParameter("fov", -std::numeric_limits<double>::infinity(), 1.0, 170.0), Contains("fov is -inf"));
    CHECK_THROWS_WITH(checkParameter("fov", 0.5, 1.0, 170.0), Contains("fov is 0.5") && Contains("out of range"));
}

TEST_CASE("warm-up refuses a NaN, infinite or negative time before any run instead of running forever", "[warm-up][parameters]")
{
    for (double ms : {std::nan(""), std::numeric_limits<double>::infinity(), -1.0, kMaxWarmUpMs * 2}) {
        INFO(ms);
        uint32_t runs = 0;
        CHECK_THROWS_AS(warmUp(3, ms, [&] { ++runs; }), Error);
        CHECK(runs == 0);
    }
}
