// The one shading rule of isoscope images, shared by the raster pass
// (render/shade_mesh.frag) and the raycasters (raycast/*.comp) so a mesh and
// a raycast of the same surface look alike and composite without seams.
// Blinn-Phong with a headlight (the light sits at the eye), lit on both
// sides: an isosurface is open at the volume's boundary, so its back faces
// are seen and must not turn black. The side is chosen by the normal against
// the view direction, not by winding, since extractors do not agree on one.
// Normals point from inside (value >= iso) toward outside, as the
// extractors' do.

vec3 shadeHeadlight(vec3 normal, vec3 toEye, vec3 frontColor, vec3 backColor)
{
    float len = length(normal);
    vec3 n = len > 0.0 ? normal / len : toEye; // a degenerate normal faces the viewer
    bool back = dot(n, toEye) < 0.0;
    if (back)
        n = -n;
    vec3 base = back ? backColor : frontColor;
    // Headlight: light direction = view direction, so the half vector is toEye too.
    float diffuse = max(dot(n, toEye), 0.0);
    float specular = pow(diffuse, 48.0);
    return base * (0.15 + 0.85 * diffuse) + vec3(0.25 * specular);
}
