// The host scene's push constants: one box (or the ground quad) per draw.
// 128 bytes, the size every Vulkan device guarantees.
layout(push_constant) uniform ScenePush {
    mat4 viewProjection; // isoscope::api::viewProjection: Vulkan clip space, y down, depth 0..1
    vec4 center;         // world, z up
    vec4 halfSize;       // the ground quad's z is 0
    vec4 color;
    vec4 toLight;        // unit, world
} scene;
