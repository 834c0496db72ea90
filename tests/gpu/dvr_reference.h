#pragma once
// A CPU direct volume renderer written for the tests, with the rule of
// shaders/dvr/dvr_common.glsl and nothing else: the isosurface reference's
// camera rays and float trilinear samples (raycast_reference.h), the table
// read with linear interpolation between entries (TransferTable::lookup),
// opacity corrected to the step, headlight shading from central differences
// (clamped to the box) where the table's opacity is at least 0.1, front-to-
// back compositing over the clear colour, termination after each sample at
// the termination opacity, and depth where the opacity first reaches the
// depth opacity. No skipping: it must not change a pixel.
#include <vector>

#include "dvr/dvr_params.h"
#include "dvr/transfer_function.h"
#include "io/image_io.h"
#include "volume/volume.h"

namespace isoscope::test {

struct DvrReferenceImage {
    RgbaImage image;
    std::vector<float> depth; // 0..1, 1 where no ray became opaque enough
};

DvrReferenceImage referenceDvr(const Volume& volume, const TransferTable& table, const DvrParams& params,
                               uint32_t width, uint32_t height);

// Peak signal-to-noise ratio of two RGBA images' colour, in dB (infinite when equal).
double psnr(const RgbaImage& a, const RgbaImage& b);

} // namespace isoscope::test
