#pragma once
// A streamed slab's staging as the upload passes read it: pieces of whole
// planes, each at the start of a buffer of its own (host pages imported a
// piece at a time, so the first pieces are ready to upload before the last
// are pinned; streamed_extraction.cpp).
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include <volk.h>

#include "core/error.h"
#include "graph/render_graph.h"

namespace isoscope {

// Staging as host pages the engine imports (the default where the device
// can), or as the driver's pinned allocation: ISOSCOPE_STREAM_STAGING=allocate
// (the streamed extraction's and the source ceiling's alike).
inline bool stagingImportWanted()
{
    const char* choice = std::getenv("ISOSCOPE_STREAM_STAGING");
    if (!choice || std::string_view(choice) == "import")
        return true;
    if (std::string_view(choice) == "allocate")
        return false;
    fail("ISOSCOPE_STREAM_STAGING='" + std::string(choice) + "': give import or allocate");
}

// Planes [firstPlane, firstPlane + planes) of the slab volume, from byte 0
// of `buffer` (the method's texels, x fastest).
struct SlabStagingPiece {
    VkBuffer buffer = VK_NULL_HANDLE;
    uint32_t firstPlane = 0, planes = 0;
};

using SlabStaging = std::vector<SlabStagingPiece>;

// Which part of a slab's upload a graph is, where a slab is uploaded piece
// by piece (a submission each, so each piece's staging is free again as
// soon as it is copied): the first discards the volume's old contents, the
// last releases the volume to the extraction's queue family; a whole upload
// is both.
struct SlabUploadPart {
    bool first = true, last = true;
};

// The planes the pieces hold, checked to follow each other plane by plane
// from the first's and to end by `planes`; from plane 0 where `whole`.
inline void checkStagingWithin(const SlabStaging& staging, uint32_t planes, bool whole)
{
    if (staging.empty())
        fail("a slab upload without staging pieces (an engine bug)");
    uint32_t covered = staging.front().firstPlane;
    for (const SlabStagingPiece& piece : staging) {
        if (piece.firstPlane != covered || piece.planes == 0)
            fail("slab staging pieces that do not follow each other plane by plane (an engine bug)");
        covered += piece.planes;
    }
    if (covered > planes || (whole && (staging.front().firstPlane != 0 || covered != planes)))
        fail("slab staging pieces of planes [" + std::to_string(staging.front().firstPlane) + ", " +
             std::to_string(covered) + ") for an upload of " + std::to_string(planes) + " planes (an engine bug)");
}

// A piece as an upload reads it: imported into the upload's graph, holding
// planes [firstPlane, firstPlane + planes) of the volume from plane
// `skipped` of its buffer on.
struct SlabUploadPiece {
    ResourceId id = kNoResource;
    uint32_t firstPlane = 0, planes = 0, skipped = 0;
};

// The pieces an upload writing the planes from `firstPlane` on reads (the
// planes before, the overlap copy writes), each imported into `graph` and
// added to `uses` as a transfer source.
inline std::vector<SlabUploadPiece> importUploadPieces(RenderGraph& graph, const SlabStaging& staging,
                                                       uint32_t firstPlane, std::vector<ResourceUse>& uses)
{
    std::vector<SlabUploadPiece> pieces;
    for (const SlabStagingPiece& piece : staging) {
        if (piece.firstPlane + piece.planes <= firstPlane)
            continue;
        uint32_t skipped = piece.firstPlane < firstPlane ? firstPlane - piece.firstPlane : 0;
        ResourceId id = graph.importBuffer("slab staging", piece.buffer);
        uses.push_back({id, Use::TransferSrc});
        pieces.push_back({id, piece.firstPlane + skipped, piece.planes - skipped, skipped});
    }
    return pieces;
}

} // namespace isoscope
