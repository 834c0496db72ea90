// Workgroup-wide exclusive prefix sums built from subgroup scans, as the
// extractors use them to turn per-invocation counts (vertices, triangles,
// active blocks) into output offsets (Parallel Marching Blocks paper, sections 4.2 and 4.3.2: warp-level scan,
// then a scan of the per-warp sums through shared memory).
//
// Before including, declare the specialization constants SUBGROUP_SIZE and
// WORKGROUP_SIZE and enable GL_KHR_shader_subgroup_arithmetic and
// GL_KHR_shader_subgroup_basic. Every invocation of the workgroup must call
// these functions (they contain barriers).
//
// Subgroup size: SUBGROUP_SIZE only sizes the shared array; it is exact
// because ComputeProgram requires the device's size for every pipeline. The
// second level loops over the subgroup sums in chunks of gl_SubgroupSize: one
// chunk on NVIDIA/AMD, several on lavapipe's 4-wide subgroups.
//
// Order: offsets follow (gl_SubgroupID, gl_SubgroupInvocationID). With full
// subgroups in a 1D workgroup that is gl_LocalInvocationIndex order on every
// driver tested, but the spec does not promise it; callers rely only on the
// offsets being a packing of the counts (unique, gap-free, summing to total).

shared uvec2 scanSubgroupSums[(WORKGROUP_SIZE + SUBGROUP_SIZE - 1) / SUBGROUP_SIZE];
shared uvec2 scanWorkgroupTotal;

// Two sums scanned at once (vertex and triangle counts, say).
uvec2 workgroupExclusiveAdd2(uvec2 value, out uvec2 total)
{
    uvec2 inclusive = subgroupInclusiveAdd(value);
    uvec2 subgroupSum = subgroupAdd(value);
    if (subgroupElect())
        scanSubgroupSums[gl_SubgroupID] = subgroupSum;
    barrier();
    if (gl_SubgroupID == 0) {
        uvec2 carry = uvec2(0);
        for (uint base = 0; base < gl_NumSubgroups; base += gl_SubgroupSize) {
            uint i = base + gl_SubgroupInvocationID;
            uvec2 sum = i < gl_NumSubgroups ? scanSubgroupSums[i] : uvec2(0);
            uvec2 prefix = subgroupExclusiveAdd(sum);
            if (i < gl_NumSubgroups)
                scanSubgroupSums[i] = carry + prefix;
            carry += subgroupAdd(sum);
        }
        if (subgroupElect())
            scanWorkgroupTotal = carry;
    }
    barrier();
    uvec2 result = scanSubgroupSums[gl_SubgroupID] + inclusive - value;
    total = scanWorkgroupTotal;
    barrier(); // the shared sums may be reused by the next call
    return result;
}

uint workgroupExclusiveAdd(uint value, out uint total)
{
    uvec2 total2;
    uint result = workgroupExclusiveAdd2(uvec2(value, 0u), total2).x;
    total = total2.x;
    return result;
}
