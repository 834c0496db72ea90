// The extractors' point grid as the scan and HistoPyramid passes read it:
// the inside rule, unit steps, and what grid_gradient.glsl and
// edge_vertex.glsl (included here) ask of their includer.
//
// The includer declares, before including, a push-constant block `grid`
// with nx, ny, nz, iso, originX/Y/Z and spacingX/Y/Z, and defines
//   float sampleAt(uvec3 p);  the sample at grid point p, in data units

bool isFiniteValue(float v) { return !isnan(v) && !isinf(v); }

// A corner is inside when its value is finite and >= iso (case_table.h).
bool isInside(float v) { return isFiniteValue(v) && v >= grid.iso; }

uvec3 axisStep(uint axis) { return uvec3(axis == 0u ? 1u : 0u, axis == 1u ? 1u : 0u, axis == 2u ? 1u : 0u); }

float gridSample(uvec3 p) { return sampleAt(p); }
uvec3 gridDims() { return uvec3(grid.nx, grid.ny, grid.nz); }
vec3 gridSpacing() { return vec3(grid.spacingX, grid.spacingY, grid.spacingZ); }
float gridIso() { return grid.iso; }
vec3 gridOrigin() { return vec3(grid.originX, grid.originY, grid.originZ); }

#include "edge_vertex.glsl"
