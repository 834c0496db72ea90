// What the halfedge and face-colouring passes of Dual Marching Cubes share:
// the halfedge buffer (per halfedge: origin vertex, face, next, twin; face
// f's halfedges are 4f .. 4f + 3, so a face's first halfedge is 4f), the
// outgoing lists the twins are found through, and the capacities of the
// method's per-vertex and per-face buffers, which may be smaller than the
// mesh's counts: then the extraction is redone with them grown.
//
// Before including: mesh_output.glsl, HALFEDGE_ACCESS, and where used
// OUTGOING_BINDING with OUTGOING_ACCESS.

layout(set = 0, binding = 2, std430) HALFEDGE_ACCESS buffer Halfedges { uvec4 halfedges[]; };

const uint MAX_OUTGOING = 12u;

#ifdef OUTGOING_BINDING
layout(set = 0, binding = OUTGOING_BINDING, std430) OUTGOING_ACCESS buffer Outgoing { uint outgoing[]; };
layout(set = 0, binding = OUTGOING_BINDING + 1, std430) OUTGOING_ACCESS buffer OutgoingCounts { uint outgoingCounts[]; };
#endif


uint halfedgeFaces() { return min(min(meshFaceCount, meshFaceCapacity), grid.extraFaceCapacity); }
uint halfedgeVertices() { return min(min(meshVertexCount, meshVertexCapacity), grid.extraVertexCapacity); }
