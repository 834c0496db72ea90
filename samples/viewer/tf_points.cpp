#include "tf_points.h"

#include <algorithm>

namespace viewer {
namespace {

// Linear between the points of a list sorted by value, clamped at its ends.
template <size_t N>
std::array<double, N - 1> at(const std::vector<std::array<double, N>>& list, double value)
{
    auto payload = [](const std::array<double, N>& point) {
        std::array<double, N - 1> p;
        std::copy(point.begin() + 1, point.end(), p.begin());
        return p;
    };
    if (list.empty())
        return {};
    if (value <= list.front()[0])
        return payload(list.front());
    if (value >= list.back()[0])
        return payload(list.back());
    auto upper = std::upper_bound(list.begin(), list.end(), value,
                                  [](double v, const std::array<double, N>& point) { return v < point[0]; });
    const auto& right = *upper;
    const auto& left = *(upper - 1);
    double t = (value - left[0]) / (right[0] - left[0]);
    std::array<double, N - 1> result;
    for (size_t c = 1; c < N; ++c)
        result[c - 1] = left[c] + t * (right[c] - left[c]);
    return result;
}

template <size_t N>
size_t setPoint(std::vector<std::array<double, N>>& list, const std::array<double, N>& point)
{
    auto place = std::lower_bound(list.begin(), list.end(), point[0],
                                  [](const std::array<double, N>& p, double v) { return p[0] < v; });
    if (place != list.end() && (*place)[0] == point[0])
        *place = point;
    else
        place = list.insert(place, point);
    return size_t(place - list.begin());
}

template <size_t N>
void moveValue(std::vector<std::array<double, N>>& list, size_t i, double value)
{
    double lo = i > 0 ? list[i - 1][0] : value, hi = i + 1 < list.size() ? list[i + 1][0] : value;
    list[i][0] = std::clamp(value, std::min(lo, hi), std::max(lo, hi));
}

} // namespace

std::array<double, 3> colorAt(const TransferPoints& points, double value) { return at(points.color, value); }
double opacityAt(const TransferPoints& points, double value) { return at(points.opacity, value)[0]; }

size_t setOpacityPoint(TransferPoints& points, double value, double alpha)
{
    return setPoint(points.opacity, {value, std::clamp(alpha, 0.0, 1.0)});
}

size_t setColorPoint(TransferPoints& points, double value, const std::array<double, 3>& rgb)
{
    return setPoint(points.color, {value, std::clamp(rgb[0], 0.0, 1.0), std::clamp(rgb[1], 0.0, 1.0),
                                   std::clamp(rgb[2], 0.0, 1.0)});
}

void moveOpacityPoint(TransferPoints& points, size_t i, double value, double alpha)
{
    moveValue(points.opacity, i, value);
    points.opacity[i][1] = std::clamp(alpha, 0.0, 1.0);
}

void moveColorPoint(TransferPoints& points, size_t i, double value) { moveValue(points.color, i, value); }

bool removeOpacityPoint(TransferPoints& points, size_t i)
{
    if (points.opacity.size() <= 1 || i >= points.opacity.size())
        return false;
    points.opacity.erase(points.opacity.begin() + long(i));
    return true;
}

bool removeColorPoint(TransferPoints& points, size_t i)
{
    if (points.color.size() <= 1 || i >= points.color.size())
        return false;
    points.color.erase(points.color.begin() + long(i));
    return true;
}

} // namespace viewer
