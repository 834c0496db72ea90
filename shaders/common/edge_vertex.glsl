// The vertex on a crossed grid edge, computed exactly as the CPU reference
// does (engine/extract/cpu/marching_cubes.cpp): the scan and HistoPyramid
// methods share it.
//
// The includer defines, before including, what grid_gradient.glsl needs and:
//   bool isInside(float v);     the extractors' rule (finite and >= iso)
//   uvec3 axisStep(uint axis);  the unit step along an axis
//   float gridIso();            the isovalue
//   vec3 gridOrigin();          world position of grid point (0, 0, 0)
#include "grid_gradient.glsl"

struct EdgeVertex {
    vec3 position;
    vec3 normal;
};

// The vertex on the crossed grid edge leaving `p` along `axis`: linear
// interpolation of the position, and of the endpoint gradients for the normal.
EdgeVertex edgeVertex(uvec3 p, uint axis)
{
    uvec3 q = p + axisStep(axis);
    float a = gridSample(p), b = gridSample(q);
    float t = isFiniteValue(a) && isFiniteValue(b) ? (gridIso() - a) / (b - a) : 0.5;
    vec3 index = vec3(p);
    index[axis] += t;
    EdgeVertex v;
    v.position = gridOrigin() + index * gridSpacing();
    vec3 normal = -((1.0 - t) * gridGradient(p) + t * gridGradient(q));
    float len = length(normal);
    if (len > 0.0 && !isinf(len) && !isnan(len)) {
        v.normal = normal / len;
    } else {
        v.normal = vec3(0.0);
        v.normal[axis] = isInside(a) ? 1.0 : -1.0; // from the inside end toward the outside end
    }
    return v;
}
