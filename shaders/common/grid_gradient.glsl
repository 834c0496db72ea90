// The gradient at a grid point as the CPU reference's gradientAt takes it
// (engine/extract/cpu/marching_cubes.cpp): central differences, one-sided at
// the volume's border and next to a non-finite sample (that neighbour is
// replaced by the centre), in world units; zero where it is not finite.
//
// The includer defines, before including:
//   float gridSample(uvec3 p);  the sample at grid point p, in data units
//   uvec3 gridDims();           the volume's size in samples
//   vec3 gridSpacing();         world units per voxel along each axis
//   bool isFiniteValue(float v);

vec3 gridGradient(uvec3 p)
{
    uvec3 dims = gridDims();
    float centre = gridSample(p);
    vec3 gradient = vec3(0.0);
    for (uint axis = 0u; axis < 3u; ++axis) {
        uvec3 low = p, high = p;
        float lowValue = centre, highValue = centre;
        if (p[axis] > 0u) {
            low[axis] -= 1u;
            lowValue = gridSample(low);
            if (!isFiniteValue(lowValue)) {
                low = p;
                lowValue = centre;
            }
        }
        if (p[axis] + 1u < dims[axis]) {
            high[axis] += 1u;
            highValue = gridSample(high);
            if (!isFiniteValue(highValue)) {
                high = p;
                highValue = centre;
            }
        }
        uint steps = high[axis] - low[axis];
        if (steps != 0u)
            gradient[axis] = (highValue - lowValue) / (float(steps) * gridSpacing()[axis]);
    }
    bool finite = all(not(isnan(gradient))) && all(not(isinf(gradient)));
    return finite ? gradient : vec3(0.0);
}
