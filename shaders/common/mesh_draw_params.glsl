// Push constants of the mesh raster pass (engine/render/mesh_pass.cpp,
// MeshPushConstants): shared by draw_mesh.vert and shade_mesh.frag.
layout(push_constant) uniform MeshDrawParams {
    mat4 viewProjection;
    vec4 eye;        // xyz: eye position (w = 1, perspective) or direction towards the eye (w = 0, orthographic)
    vec4 frontColor; // the side the normals point to (out of the region with value >= iso)
    vec4 backColor;  // the other side, seen through openings and at the volume's boundary
} params;
