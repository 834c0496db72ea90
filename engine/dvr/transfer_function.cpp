#include "dvr/transfer_function.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/error.h"

namespace isoscope {

namespace {

std::string number(double value)
{
    std::ostringstream text;
    text << value;
    return text.str();
}

[[noreturn]] void failPoint(const TransferFunction& tf, const char* list, size_t index, const std::string& problem)
{
    fail("transfer function '" + tf.name + "': " + list + " point " + std::to_string(index) + " " + problem);
}

bool unitInterval(double component) { return std::isfinite(component) && component >= 0.0 && component <= 1.0; }

// Checks one list: finite values in order, components in 0..1. Equal
// neighbouring values are allowed: they make a step.
template <typename Point, typename Components>
void checkPoints(const TransferFunction& tf, const std::vector<Point>& points, const char* list, Components components)
{
    if (points.empty())
        fail("transfer function '" + tf.name + "' has no " + list + " points; give at least one");
    for (size_t i = 0; i < points.size(); ++i) {
        if (!std::isfinite(points[i].value))
            failPoint(tf, list, i, "has value " + number(points[i].value) + "; values must be finite");
        if (i > 0 && points[i].value < points[i - 1].value)
            failPoint(tf, list, i, "has value " + number(points[i].value) + " below the previous point's " +
                                       number(points[i - 1].value) + "; points must be sorted by value");
        for (double component : components(points[i]))
            if (!unitInterval(component))
                failPoint(tf, list, i, "has component " + number(component) + " outside 0..1");
    }
}

std::vector<double> colorComponents(const ColorPoint& point) { return {point.rgb.r, point.rgb.g, point.rgb.b}; }
std::vector<double> opacityComponents(const OpacityPoint& point) { return {point.alpha}; }

// Piecewise-linear interpolation of the points' payload at value, clamped to
// the end points. Where several points share a value, the last one wins on
// its right, the first on its left (a step).
template <typename Point, typename Payload>
auto interpolate(const std::vector<Point>& points, double value, Payload payload)
{
    if (value <= points.front().value)
        return payload(points.front());
    if (value >= points.back().value)
        return payload(points.back());
    auto upper = std::upper_bound(points.begin(), points.end(), value,
                                  [](double v, const Point& point) { return v < point.value; });
    const Point& right = *upper;
    const Point& left = *(upper - 1);
    double t = (value - left.value) / (right.value - left.value); // right.value > value ≥ left.value
    return payload(left) + float(t) * (payload(right) - payload(left));
}

} // namespace

std::array<double, 2> transferFunctionRange(const TransferFunction& tf)
{
    double lo = INFINITY, hi = -INFINITY;
    for (const ColorPoint& point : tf.color)
        lo = std::min(lo, point.value), hi = std::max(hi, point.value);
    for (const OpacityPoint& point : tf.opacity)
        lo = std::min(lo, point.value), hi = std::max(hi, point.value);
    return {lo, hi};
}

glm::vec4 transferFunctionAt(const TransferFunction& tf, double value)
{
    glm::vec3 rgb = interpolate(tf.color, value, [](const ColorPoint& point) { return point.rgb; });
    float alpha = interpolate(tf.opacity, value, [](const OpacityPoint& point) { return point.alpha; });
    return glm::vec4(glm::clamp(rgb, 0.0f, 1.0f), std::clamp(alpha, 0.0f, 1.0f));
}

void checkTransferFunction(const TransferFunction& tf)
{
    checkPoints(tf, tf.color, "colour", colorComponents);
    checkPoints(tf, tf.opacity, "opacity", opacityComponents);
}

TransferTable bakeTransferFunction(const TransferFunction& tf, uint32_t entries)
{
    checkTransferFunction(tf);
    if (entries < 2)
        fail("transfer function '" + tf.name + "': a table needs at least 2 entries, not " + std::to_string(entries));

    auto [lo, hi] = transferFunctionRange(tf);
    if (!(hi > lo))
        lo -= 0.5, hi += 0.5;
    TransferTable table;
    table.lo = float(lo);
    table.hi = float(hi);
    if (!(table.hi > table.lo))
        fail("transfer function '" + tf.name + "': its range " + number(lo) + " .. " + number(hi) +
             " is too narrow for a float table; spread the control points further apart");

    table.rgba.resize(entries);
    for (uint32_t i = 0; i < entries; ++i) {
        double value = lo + double(i) * (hi - lo) / double(entries - 1);
        table.rgba[i] = transferFunctionAt(tf, value);
    }

    table.nextVisible.resize(entries);
    uint32_t next = entries;
    for (uint32_t i = entries; i-- > 0;) {
        if (table.rgba[i].a > 0.0f)
            next = i;
        table.nextVisible[i] = next;
    }
    return table;
}

float TransferTable::coordinate(float value) const
{
    float last = float(rgba.size() - 1);
    float u = (value - lo) / (hi - lo) * last;
    // NaN (a NaN sample) reads the first entry, as a clamped texture would at 0.
    if (!(u > 0.0f))
        return 0.0f;
    return std::min(u, last);
}

glm::vec4 TransferTable::lookup(float value) const
{
    float u = coordinate(value);
    size_t i0 = size_t(u);
    size_t i1 = std::min(i0 + 1, rgba.size() - 1);
    float t = u - float(i0);
    return glm::mix(rgba[i0], rgba[i1], t);
}

bool TransferTable::transparent(float a, float b) const
{
    if (b < a)
        std::swap(a, b);
    size_t first = size_t(std::floor(coordinate(a)));
    size_t last = size_t(std::ceil(coordinate(b)));
    return nextVisible[first] > last;
}

} // namespace isoscope
