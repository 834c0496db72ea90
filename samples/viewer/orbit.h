#pragma once
// The viewer's camera: an orbit about the volume's centre (azimuth about z,
// elevation above the xy plane), a zoom that scales the distance, a pan in
// the view plane and the orthographic toggle. The frame of frameVolume()
// at zoom 1 and no pan is the reset view, so a headless render at the same
// angles sees exactly what the window shows.
#include <isoscope/camera.h>
#include <isoscope/volume.h>

namespace viewer {

struct Orbit {
    float azimuthDeg = 30.0f;
    float elevationDeg = 20.0f;
    float zoom = 1.0f;           // distance from the target over the framing distance
    float panX = 0.0f, panY = 0.0f; // in units of that distance
    bool orthographic = false;

    // Mouse drags in pixels of a window `height` pixels high; wheel in notches.
    void rotate(float dxPixels, float dyPixels);
    void pan(float dxPixels, float dyPixels, float height);
    void wheel(float notches);

    isoscope::api::Camera camera(const isoscope::api::Volume& volume, float aspect) const;
};

} // namespace viewer
