// Transfer functions for direct volume rendering (issue 20): baking control
// points into the table the GPU reads, the one-lookup emptiness test that
// empty-space skipping uses, ParaView's JSON and the text format, the errors
// for malformed files, and the built-in presets.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <string>

#include "../datasets_dir.h"
#include "core/error.h"
#include "dvr/transfer_function.h"
#include "dvr/transfer_function_io.h"
#include "dvr/transfer_function_presets.h"
#include "volume/readers.h"
#include "volume/synthetic.h"

using namespace isoscope;
namespace fs = std::filesystem;

namespace {

std::string errorOf(const std::function<void()>& action)
{
    try {
        action();
    } catch (const Error& error) {
        return error.what();
    }
    return "";
}

fs::path writeTemporary(const std::string& name, const std::string& text)
{
    fs::path folder = fs::path(ISOSCOPE_TEST_TMP_DIR) / "transfer_function";
    fs::create_directories(folder);
    fs::path path = folder / name;
    std::ofstream file(path, std::ios::binary | std::ios::trunc);
    file << text;
    REQUIRE(file.good());
    return path;
}

TransferFunction twoPoints(double lo, double hi)
{
    TransferFunction tf;
    tf.name = "test";
    tf.color = {{lo, glm::vec3(0.0f, 0.2f, 1.0f)}, {hi, glm::vec3(1.0f, 0.6f, 0.0f)}};
    tf.opacity = {{lo, 0.0f}, {hi, 0.8f}};
    return tf;
}

// Opacity zero except a triangular bump on [bumpLo, bumpHi] peaking at its middle.
TransferFunction bump(double bumpLo, double bumpHi)
{
    TransferFunction tf;
    tf.name = "bump";
    tf.color = {{0.0, glm::vec3(1.0f)}};
    tf.opacity = {{0.0, 0.0f}, {bumpLo, 0.0f}, {0.5 * (bumpLo + bumpHi), 0.7f}, {bumpHi, 0.0f}, {100.0, 0.0f}};
    return tf;
}

// Every value of [a, b] the brute force looks at: both ends, each table
// entry's value inside, and 200 values between.
bool transparentByScan(const TransferTable& table, float a, float b)
{
    if (table.lookup(a).a > 0.0f || table.lookup(b).a > 0.0f)
        return false;
    float step = (table.hi - table.lo) / float(table.rgba.size() - 1);
    for (size_t i = 0; i < table.rgba.size(); ++i) {
        float value = table.lo + float(i) * step;
        if (value > a && value < b && table.lookup(value).a > 0.0f)
            return false;
    }
    for (int i = 1; i < 200; ++i)
        if (table.lookup(a + (b - a) * float(i) / 200.0f).a > 0.0f)
            return false;
    return true;
}

} // namespace

TEST_CASE("the table holds the control points at their entries and the straight line between them",
          "[transfer-function]")
{
    // Over 0..255 with 256 entries, entry i sits at value i.
    TransferTable table = bakeTransferFunction(twoPoints(0.0, 255.0));
    REQUIRE(table.rgba.size() == kTransferTableEntries);
    CHECK(table.lo == 0.0f);
    CHECK(table.hi == 255.0f);
    CHECK(table.rgba[0].r == Approx(0.0f).margin(1e-6));
    CHECK(table.rgba[0].b == Approx(1.0f));
    CHECK(table.rgba[0].a == Approx(0.0f).margin(1e-6));
    CHECK(table.rgba[255].r == Approx(1.0f));
    CHECK(table.rgba[255].a == Approx(0.8f));
    CHECK(table.rgba[51].r == Approx(0.2f));
    CHECK(table.rgba[51].g == Approx(0.2f + 0.4f * 0.2f));
    CHECK(table.rgba[51].a == Approx(0.16f));

    // Three colour points, opacity points elsewhere: each list interpolated on its own.
    TransferFunction tf;
    tf.name = "three";
    tf.color = {{10.0, glm::vec3(0.0f)}, {20.0, glm::vec3(1.0f, 0.0f, 0.0f)}, {30.0, glm::vec3(1.0f, 1.0f, 0.0f)}};
    tf.opacity = {{15.0, 0.2f}, {25.0, 0.6f}};
    TransferTable three = bakeTransferFunction(tf, 21); // entry i at 10 + i
    CHECK(three.lo == 10.0f);
    CHECK(three.hi == 30.0f);
    CHECK(three.rgba[5].r == Approx(0.5f));   // value 15, half way to red
    CHECK(three.rgba[10].r == Approx(1.0f));  // value 20, the red point
    CHECK(three.rgba[15].g == Approx(0.5f));  // value 25, half way to yellow
    CHECK(three.rgba[0].a == Approx(0.2f));   // value 10, below the first opacity point: clamped
    CHECK(three.rgba[10].a == Approx(0.4f));  // value 20, half way between the opacity points
    CHECK(three.rgba[20].a == Approx(0.6f));  // value 30, clamped
}

TEST_CASE("a lookup interpolates between entries and clamps outside the table", "[transfer-function]")
{
    TransferTable table = bakeTransferFunction(twoPoints(-1.0, 1.0), 5); // entries at -1, -0.5, 0, 0.5, 1
    CHECK(table.coordinate(-1.0f) == 0.0f);
    CHECK(table.coordinate(0.25f) == Approx(2.5f));
    CHECK(table.coordinate(1.0f) == 4.0f);
    CHECK(table.coordinate(-7.0f) == 0.0f);
    CHECK(table.coordinate(1e30f) == 4.0f);
    CHECK(table.coordinate(std::numeric_limits<float>::quiet_NaN()) == 0.0f);

    CHECK(table.lookup(0.25f).a == Approx(0.5f)); // opacity 0..0.8 over -1..1
    CHECK(table.lookup(0.25f).r == Approx(0.625f));
    CHECK(table.lookup(-5.0f).a == 0.0f);
    CHECK(table.lookup(-5.0f).b == Approx(1.0f));
    CHECK(table.lookup(9.0f).a == Approx(0.8f));
    CHECK(table.lookup(9.0f).r == Approx(1.0f));

    // One control point: a range of 1 around it, constant everywhere.
    TransferFunction single;
    single.name = "single";
    single.color = {{3.0, glm::vec3(0.5f)}};
    single.opacity = {{3.0, 0.25f}};
    TransferTable flat = bakeTransferFunction(single);
    CHECK(flat.lo == 2.5f);
    CHECK(flat.hi == 3.5f);
    CHECK(flat.lookup(-100.0f) == glm::vec4(0.5f, 0.5f, 0.5f, 0.25f));
    CHECK(flat.lookup(3.2f) == glm::vec4(0.5f, 0.5f, 0.5f, 0.25f));
}

TEST_CASE("nextVisible points past the holes of the opacity table", "[transfer-function]")
{
    // Entry i at value i (101 entries over 0..100); opacity above zero on 40 < v < 60 only.
    TransferTable table = bakeTransferFunction(bump(40.0, 60.0), 101);
    REQUIRE(table.nextVisible.size() == 101);
    CHECK(table.nextVisible[0] == 41);
    CHECK(table.nextVisible[40] == 41);
    CHECK(table.nextVisible[41] == 41);
    CHECK(table.nextVisible[59] == 59);
    CHECK(table.nextVisible[60] == 101);
    CHECK(table.nextVisible[100] == 101);

    CHECK(table.transparent(0.0f, 40.0f));
    CHECK(table.transparent(60.0f, 100.0f));
    CHECK(table.transparent(-50.0f, 39.5f));
    CHECK_FALSE(table.transparent(0.0f, 40.01f)); // reaches into the bump
    CHECK_FALSE(table.transparent(59.9f, 100.0f));
    CHECK_FALSE(table.transparent(45.0f, 45.0f));
    CHECK_FALSE(table.transparent(0.0f, 100.0f));
}

TEST_CASE("transparent(a, b) agrees with a scan of lookup over [a, b] for random ranges and tables",
          "[transfer-function]")
{
    std::mt19937 random(20);
    std::uniform_real_distribution<double> place(-10.0, 110.0);
    int transparentCount = 0, visibleCount = 0;
    for (int function = 0; function < 40; ++function) {
        // Bumps of random width, down to less than one entry apart.
        double lo = place(random), width = std::exp(std::uniform_real_distribution<double>(-2.0, 3.5)(random));
        double bumpLo = std::clamp(lo, 0.5, 98.0);
        TransferTable table = bakeTransferFunction(bump(bumpLo, std::min(bumpLo + width, 99.5)), function % 2 ? 256 : 37);
        for (int range = 0; range < 250; ++range) {
            float a = float(place(random)), b = float(place(random));
            if (range % 3 == 0)
                b = a + float(std::uniform_real_distribution<double>(0.0, 2.0)(random)); // short ranges
            if (b < a)
                std::swap(a, b);
            bool expected = transparentByScan(table, a, b);
            INFO("table over " << table.lo << ".." << table.hi << " (" << table.rgba.size() << " entries), range "
                               << a << ".." << b);
            REQUIRE(table.transparent(a, b) == expected);
            (expected ? transparentCount : visibleCount)++;
        }
    }
    // Both answers are exercised.
    CHECK(transparentCount > 1000);
    CHECK(visibleCount > 1000);
}

// tests/data/transfer_functions/paraview_preset.json is written the way
// ParaView's "Export" writes it: vtkSMTransferFunctionProxy::ExportTransferFunction
// (Kitware/ParaView, Remoting/Views/vtkSMTransferFunctionProxy.cxx) puts the
// colour function's preset state (ColorSpace, RGBPoints as value, r, g, b, …)
// and the opacity function's Points (value, alpha, midpoint, sharpness, …)
// into one object with its Name, in a one-element list, written by jsoncpp's
// toStyledString (keys sorted, three-space indents, long arrays one number a
// line, doubles at 17 significant digits).
TEST_CASE("a ParaView export loads to the expected table", "[transfer-function]")
{
    fs::path path = fs::path(ISOSCOPE_TEST_DATA_DIR) / "transfer_functions" / "paraview_preset.json";
    TransferFunction tf = readTransferFunction(path.string());
    CHECK(tf.name == "isoscope test: two bumps");
    REQUIRE(tf.color.size() == 4);
    REQUIRE(tf.opacity.size() == 7);
    CHECK(tf.color[1].value == 100.0);
    CHECK(tf.color[1].rgb.g == Approx(0.3f));
    CHECK(tf.opacity[2].alpha == Approx(0.05f));

    // 256 entries over -1000..3000: entry i at -1000 + i × 4000/255. The
    // expected values are those of vtkColorTransferFunction (RGB space) and
    // vtkPiecewiseFunction from python3-vtk9 given the same points.
    TransferTable table = bakeTransferFunction(tf);
    CHECK(table.lo == -1000.0f);
    CHECK(table.hi == 3000.0f);
    auto near = [](glm::vec4 actual, glm::vec4 expected) {
        INFO("actual " << actual.r << " " << actual.g << " " << actual.b << " " << actual.a);
        for (int c = 0; c < 4; ++c)
            CHECK(actual[c] == Approx(expected[c]).margin(1e-5));
    };
    near(table.rgba[0], {0.0f, 0.0f, 0.0f, 0.0f});
    near(table.rgba[51], {0.654545f, 0.218182f, 0.145455f, 0.0f}); // value -200: the first opacity hole ends
    near(table.rgba[70], {0.898396f, 0.299465f, 0.199643f, 0.049673f});
    near(table.rgba[89], {0.932898f, 0.530283f, 0.413834f, 0.000654f}); // the last of the first bump
    near(table.rgba[102], {0.955556f, 0.688889f, 0.561111f, 0.0f}); // value 600: the second hole ends
    near(table.rgba[103], {0.957298f, 0.701089f, 0.572440f, 0.031373f});
    near(table.rgba[127], {0.999129f, 0.993900f, 0.844336f, 0.784314f});
    near(table.rgba[255], {1.0f, 1.0f, 1.0f, 1.0f});
    CHECK(table.nextVisible[0] == 52);
    CHECK(table.nextVisible[89] == 89);
    CHECK(table.nextVisible[90] == 103);
    CHECK(table.transparent(-1000.0f, -200.0f));
    // The first bump ends at 400, but entry 89 (396.1) is its last non-zero
    // entry, so the table reads non-zero up to entry 90 (411.8).
    CHECK_FALSE(table.transparent(400.0f, 600.0f));
    CHECK(table.transparent(412.0f, 600.0f));
    CHECK_FALSE(table.transparent(-1000.0f, -190.0f));

    // One object instead of a list, and no Points: opacity ramps 0..1 over the colours.
    TransferFunction object = parseParaViewTransferFunction(
        R"({ "ColorSpace" : "Diverging", "Name" : "Cool to Warm", "RGBPoints" : [ 0, 0.23, 0.299, 0.754, 1, 0.706, 0.016, 0.15 ] })",
        "object.json");
    CHECK(object.name == "Cool to Warm");
    REQUIRE(object.opacity.size() == 2);
    CHECK(object.opacity[0].value == 0.0);
    CHECK(object.opacity[0].alpha == 0.0f);
    CHECK(object.opacity[1].value == 1.0);
    CHECK(object.opacity[1].alpha == 1.0f);
}

TEST_CASE("the text format reads `value r g b a` lines with comments and blank lines", "[transfer-function]")
{
    fs::path path = writeTemporary("ramp.txt", "# a ramp with a hole\n"
                                               "\n"
                                               "  -1.5  0 0 0    0     # air\n"
                                               "0\t0.5 0.25 0 0\n"
                                               "+2e1 1 1 1 1\r\n");
    TransferFunction tf = readTransferFunction(path.string());
    CHECK(tf.name == path.string());
    REQUIRE(tf.color.size() == 3);
    REQUIRE(tf.opacity.size() == 3);
    CHECK(tf.color[0].value == -1.5);
    CHECK(tf.color[1].rgb == glm::vec3(0.5f, 0.25f, 0.0f));
    CHECK(tf.color[2].value == 20.0);
    CHECK(tf.opacity[2].alpha == 1.0f);
    TransferTable table = bakeTransferFunction(tf);
    CHECK(table.lo == -1.5f);
    CHECK(table.hi == 20.0f);
    CHECK(table.transparent(-1.5f, -0.1f)); // entry 18 (0.018) is the first above zero
    CHECK_FALSE(table.transparent(-1.5f, 0.0f));
    CHECK(table.lookup(10.0f).a == Approx(0.5f).margin(1e-5));
}

TEST_CASE("malformed transfer-function files are refused naming the file and the line or key",
          "[transfer-function]")
{
    auto jsonError = [](const std::string& text) {
        return errorOf([&] { readTransferFunction(writeTemporary("bad.json", text).string()); });
    };
    auto textError = [](const std::string& text) {
        return errorOf([&] { readTransferFunction(writeTemporary("bad.txt", text).string()); });
    };
    using Catch::Contains;

    CHECK_THAT(jsonError(R"([ { "Name" : "x", "Points" : [ 0, 0, 0.5, 0 ] } ])"),
               Contains("bad.json") && Contains("no RGBPoints"));
    CHECK_THAT(jsonError(R"([ { "RGBPoints" : [ 0, 0, 0, 0, 1, 1, 1 ] } ])"),
               Contains("bad.json") && Contains("RGBPoints has 7 numbers") && Contains("multiple of 4"));
    CHECK_THAT(jsonError(R"([ { "RGBPoints" : [ 0, 0, 0, 0 ], "Points" : [ 0, 0, 0.5, 0, 1, 1 ] } ])"),
               Contains("bad.json") && Contains("Points has 6 numbers"));
    CHECK_THAT(jsonError(R"([ { "RGBPoints" : [ 0, 0, 0, 0, 1, 1, "one", 1 ] } ])"),
               Contains("bad.json") && Contains("RGBPoints[6] (g of point 1)") && Contains("\"one\"") &&
                   Contains("not a number"));
    CHECK_THAT(jsonError(R"([ { "RGBPoints" : [ 5, 0, 0, 0, 1, 1, 1, 1 ] } ])"),
               Contains("bad.json") && Contains("RGBPoints[4] (value of point 1)") && Contains("sorted"));
    CHECK_THAT(jsonError(R"([ { "RGBPoints" : [ 0, 0, 0, 0, 1, 1, 255, 1 ] } ])"),
               Contains("bad.json") && Contains("RGBPoints[6]") && Contains("255") && Contains("outside 0..1"));
    CHECK_THAT(jsonError(R"([ { "RGBPoints" : [ 0, 0, 0, 0 ], "Points" : [ 0, 2, 0.5, 0 ] } ])"),
               Contains("bad.json") && Contains("Points[1] (alpha of point 0)") && Contains("outside 0..1"));
    CHECK_THAT(jsonError(""), Contains("bad.json") && Contains("empty"));
    CHECK_THAT(jsonError(" \n"), Contains("bad.json") && Contains("empty"));
    CHECK_THAT(jsonError("[\n   {\n      \"RGBPoints\" : \n      [\n         0,\n"), // truncated
               Contains("bad.json:6: not valid JSON: syntax error") && Contains("unexpected end of input"));
    CHECK_THAT(jsonError("[ { \"RGBPoints\" : [ 0, 0, 0, 0 ] },\n  { ] ]"),
               Contains("bad.json:2: not valid JSON"));
    CHECK_THAT(jsonError("[]"), Contains("bad.json") && Contains("empty list"));
    CHECK_THAT(jsonError("[ 3 ]"), Contains("bad.json") && Contains("[0]") && Contains("not a preset"));
    CHECK_THAT(jsonError(R"([ { "IndexedColors" : [ 1, 0, 0 ] } ])"),
               Contains("bad.json") && Contains("IndexedColors") && Contains("categorical"));

    CHECK_THAT(textError(""), Contains("bad.txt") && Contains("no control points"));
    CHECK_THAT(textError("# only a comment\n\n"), Contains("bad.txt") && Contains("no control points"));
    CHECK_THAT(textError("0 0 0 0 0\n\n# fine so far\n\n\n\n1 1 1\n"),
               Contains("bad.txt:7: expected 5 numbers `value r g b a`, found 3"));
    CHECK_THAT(textError("0 0 0 0 0 0\n"), Contains("bad.txt:1:") && Contains("found 6"));
    CHECK_THAT(textError("0 0 0 0 0\n1 0.5 abc 0 1\n"), Contains("bad.txt:2:") && Contains("'abc'"));
    CHECK_THAT(textError("0 0 0 0 0\n1 0.5 nan 0 1\n"), Contains("bad.txt:2:") && Contains("'nan'"));
    CHECK_THAT(textError("0 0 0 0 0\n1 0.5 1.5 0 1\n"), Contains("bad.txt:2:") && Contains("g is 1.5, outside 0..1"));
    CHECK_THAT(textError("0 0 0 0 0\n1 0.5 0.5 0 -0.1\n"), Contains("bad.txt:2:") && Contains("a is -0.1"));
    CHECK_THAT(textError("5 0 0 0 0\n# between\n1 1 1 1 1\n"),
               Contains("bad.txt:3:") && Contains("below 5 on line 1") && Contains("sorted"));

    CHECK_THAT(errorOf([] { readTransferFunction("/nonexistent/tf.json"); }),
               Contains("/nonexistent/tf.json") && Contains("no such file"));
    CHECK_THAT(errorOf([] { readTransferFunction(ISOSCOPE_TEST_DATA_DIR); }), Contains("not a regular file"));
}

TEST_CASE("control points that are empty, unsorted, not finite or out of 0..1 are refused by name",
          "[transfer-function]")
{
    using Catch::Contains;
    TransferFunction tf = twoPoints(0.0, 1.0);
    tf.name = "mine";
    CHECK_NOTHROW(checkTransferFunction(tf));

    TransferFunction empty = tf;
    empty.opacity.clear();
    CHECK_THAT(errorOf([&] { bakeTransferFunction(empty); }), Contains("'mine'") && Contains("no opacity points"));
    TransferFunction unsorted = tf;
    std::swap(unsorted.color[0], unsorted.color[1]);
    CHECK_THAT(errorOf([&] { checkTransferFunction(unsorted); }),
               Contains("'mine'") && Contains("colour point 1") && Contains("sorted"));
    TransferFunction infinite = tf;
    infinite.opacity[1].value = INFINITY;
    CHECK_THAT(errorOf([&] { checkTransferFunction(infinite); }), Contains("opacity point 1") && Contains("finite"));
    TransferFunction bright = tf;
    bright.color[0].rgb.g = 1.01f;
    CHECK_THAT(errorOf([&] { checkTransferFunction(bright); }), Contains("colour point 0") && Contains("0..1"));

    // Equal values make a step, which is allowed.
    TransferFunction step;
    step.name = "step";
    step.color = {{0.0, glm::vec3(0.0f)}, {1.0, glm::vec3(0.0f)}, {1.0, glm::vec3(1.0f)}, {2.0, glm::vec3(1.0f)}};
    step.opacity = {{0.0, 0.0f}, {1.0, 0.0f}, {1.0, 1.0f}, {2.0, 1.0f}};
    TransferTable table = bakeTransferFunction(step, 5); // entries at 0, 0.5, 1, 1.5, 2
    CHECK(table.rgba[1].a == 0.0f);
    CHECK(table.rgba[2].a == 1.0f);
    CHECK(table.rgba[3].r == 1.0f);
}

TEST_CASE("the presets exist and bake for the engine CT, Hounsfield units and the synthetic fields",
          "[transfer-function]")
{
    using Catch::Contains;
    REQUIRE(transferFunctionPresetNames() == std::vector<std::string>{"ct", "grayscale", "cayley"});
    struct Range {
        const char* what;
        float lo, hi;
    };
    const Range ranges[] = {{"engine CT uint8", 0.0f, 255.0f},   {"CT in HU", -1024.0f, 3071.0f},
                            {"cayley:128", -27.0f, 5.0f},         {"sphere", 0.0f, 1.7320508f},
                            {"a constant volume", 7.0f, 7.0f},    {"float MRI", -3.5f, 1.0e4f}};
    for (const Range& range : ranges)
        for (const std::string& name : transferFunctionPresetNames()) {
            INFO(name << " on " << range.what);
            std::optional<TransferFunction> tf = transferFunctionPreset(name, range.lo, range.hi);
            REQUIRE(tf);
            TransferTable table = bakeTransferFunction(*tf);
            CHECK(table.rgba.size() == kTransferTableEntries);
            bool anyVisible = table.nextVisible[0] < table.rgba.size();
            CHECK(anyVisible);
        }
    CHECK_FALSE(transferFunctionPreset("bone", 0.0f, 1.0f));
    CHECK_THAT(errorOf([] { transferFunctionPreset("ct", 1.0f, 0.0f); }), Contains("ct") && Contains("range"));
    CHECK_THAT(errorOf([] { resolveTransferFunction("no-such-tf", 0.0f, 1.0f); }),
               Contains("no-such-tf") && Contains("ct, grayscale, cayley"));
    fs::path file = writeTemporary("ramp.txt", "0 0 0 0 0\n1 1 1 1 1\n");
    CHECK(resolveTransferFunction(file.string(), 0.0f, 1.0f).color.size() == 2);
    CHECK(resolveTransferFunction("grayscale", 0.0f, 1.0f).name == "grayscale");
}

TEST_CASE("the ct preset shows the engine's metal opaque inside a translucent border, air transparent",
          "[transfer-function]")
{
    // engine_256x256x128_uint8: air below 30, the blurred border 30..120, the
    // aluminium 130..155, denser inserts 195..255 (histogram of the dataset).
    TransferTable table = bakeTransferFunction(*transferFunctionPreset("ct", 0.0f, 255.0f));
    CHECK(table.transparent(0.0f, 30.0f));
    glm::vec4 border = table.lookup(80.0f), metal = table.lookup(142.0f), insert = table.lookup(210.0f);
    CHECK(border.a > 0.01f);
    CHECK(border.a < 0.1f);
    CHECK(border.r > border.g + 0.2f); // reddish
    CHECK(metal.a > 0.8f);
    CHECK(insert.a > 0.9f);
    CHECK(std::min({metal.r, metal.g, metal.b}) > 0.8f); // light

    // In Hounsfield units: air transparent, soft tissue reddish and
    // translucent, bone opaque and off-white.
    TransferTable hu = bakeTransferFunction(*transferFunctionPreset("ct", -1024.0f, 3071.0f));
    CHECK(hu.lo == -1024.0f);
    CHECK(hu.hi == 3071.0f);
    CHECK(hu.transparent(-1024.0f, -500.0f));
    for (float tissue : {-80.0f, 40.0f, 150.0f}) {
        glm::vec4 soft = hu.lookup(tissue);
        CHECK(soft.a > 0.0f);
        CHECK(soft.a < 0.01f);
        CHECK(soft.r > soft.g + 0.2f);
    }
    glm::vec4 bone = hu.lookup(1000.0f);
    CHECK(bone.a > 0.85f);
    CHECK(std::min({bone.r, bone.g, bone.b}) > 0.8f);
    CHECK(hu.lookup(350.0f).a >= 0.5f);
}

TEST_CASE("on the engine CT itself the ct preset makes the metal opaque and its border translucent",
          "[transfer-function]")
{
    fs::path file = isoscope::test::datasetsDir() / "engine_256x256x128_uint8.nhdr";
    if (!fs::exists(file)) {
        WARN("skipped: no engine CT at " << file.string());
        return;
    }
    Volume volume = readVolumeFile(file);
    TransferTable table =
        bakeTransferFunction(*transferFunctionPreset("ct", float(volume.stats.min), float(volume.stats.max)));
    // Per voxel, by class: air (< 30), border (30..120), metal (≥ 130).
    uint64_t air = 0, airClear = 0, border = 0, borderTranslucent = 0, metal = 0, metalOpaque = 0;
    for (uint64_t i = 0; i < volume.sampleCount(); ++i) {
        float value = volume.valueAt(i);
        float alpha = table.lookup(value).a;
        if (value < 30.0f)
            air++, airClear += alpha == 0.0f;
        else if (value < 120.0f)
            border++, borderTranslucent += alpha > 0.0f && alpha < 0.1f;
        else if (value >= 130.0f)
            metal++, metalOpaque += alpha > 0.8f;
    }
    CHECK(airClear == air);
    CHECK(double(borderTranslucent) >= 0.95 * double(border));
    CHECK(double(metalOpaque) >= 0.95 * double(metal));
}

TEST_CASE("the cayley preset is a thin shell around zero and transparent elsewhere", "[transfer-function]")
{
    TransferTable table = bakeTransferFunction(*transferFunctionPreset("cayley", -27.0f, 5.0f));
    CHECK(table.lookup(0.0f).a > 0.5f);
    CHECK(table.lookup(-0.012f).a > 0.5f); // the demo's isovalue
    CHECK(table.hi - table.lo < 0.02f * 32.0f); // thin: a few per cent of the range at most
    CHECK(table.transparent(-27.0f, table.lo));
    CHECK(table.transparent(table.hi, 5.0f));
    CHECK(table.transparent(-27.0f, -1.0f));
    CHECK(table.transparent(1.0f, 5.0f));

    // On the field itself: visible voxels are few, and all near the surface.
    Volume volume = makeSyntheticVolume("cayley:64");
    TransferTable fitted =
        bakeTransferFunction(*transferFunctionPreset("cayley", float(volume.stats.min), float(volume.stats.max)));
    uint64_t visible = 0;
    for (uint64_t i = 0; i < volume.sampleCount(); ++i)
        if (fitted.lookup(volume.valueAt(i)).a > 0.0f) {
            visible++;
            REQUIRE(std::abs(volume.valueAt(i)) < 0.01f * float(volume.stats.max - volume.stats.min));
        }
    // The surface meets the cube on every face, so even a shell about 2.5
    // voxels thick at 64³ holds some 6 % of the voxels.
    CHECK(visible > 1000);
    CHECK(visible < volume.sampleCount() / 10);
}
