#pragma once
// isoscope's public API in one include: GPU isosurfaces, isosurface
// raycasting and direct volume rendering of 3D scalar fields, on the host's
// Vulkan device or one of its own. See samples/headless for a whole program.
//
//   #include <isoscope/isoscope.h>
//   auto context = isoscope::api::Context::create();
//   auto volume = isoscope::api::Volume::load(*context, "sphere:64");
//   auto surface = isoscope::api::Isosurface::create(*context, *volume);
//   auto mesh = surface->extract(0.5f);
#include "isoscope/camera.h"
#include "isoscope/context.h"
#include "isoscope/isosurface.h"
#include "isoscope/raycast.h"
#include "isoscope/renderer.h"
#include "isoscope/result.h"
#include "isoscope/stream.h"
#include "isoscope/version.h"
#include "isoscope/volume.h"
