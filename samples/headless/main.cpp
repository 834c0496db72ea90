// The smallest complete isoscope program: load a volume, extract an
// isosurface on the GPU and write it as PLY, raycast the same isovalue and
// write a PNG.  isoscope_headless [volume] [isovalue] [out-prefix]
#include <cstdio>
#include <cstdlib>
#include <string>

#include <isoscope/isoscope.h>

namespace iso = isoscope::api;

// Prints the error of a failed call and says so.
template <typename R>
bool failed(const R& result, const char* what)
{
    if (result.ok())
        return false;
    std::fprintf(stderr, "isoscope_headless: %s: %s\n", what, result.error().message.c_str());
    return true;
}

int main(int argc, char** argv)
{
    const std::string source = argc > 1 ? argv[1] : "sphere:64";
    const std::string prefix = argc > 3 ? argv[3] : "headless";

    auto context = iso::Context::create();
    if (failed(context, "no Vulkan device"))
        return 1;
    auto volume = iso::Volume::load(*context, source);
    if (failed(volume, "cannot load the volume"))
        return 1;
    auto range = volume->valueRange();
    const float isovalue = argc > 2 ? std::strtof(argv[2], nullptr) : float(0.5 * (range[0] + range[1]));

    // The mesh: extracted on the GPU, read back, written.
    auto surface = iso::Isosurface::create(*context, *volume, {iso::Method::Block});
    if (failed(surface, "cannot extract"))
        return 1;
    auto mesh = surface->extract(isovalue);
    if (failed(mesh, "extraction failed") || failed(surface->writeMesh(prefix + ".ply"), "cannot write the mesh"))
        return 1;

    // The picture: the same isovalue, raycast.
    auto raycast = iso::IsoRaycast::create(*context, *volume);
    auto renderer = iso::Renderer::create(*context);
    if (failed(raycast, "cannot raycast") || failed(renderer, "cannot render"))
        return 1;
    const VkExtent2D extent{512, 512};
    if (failed(raycast->setIsovalue(isovalue), "bad isovalue") ||
        failed(renderer->addRaycast(*raycast), "cannot add the raycast") ||
        failed(renderer->setCamera(iso::frameVolume(*volume, float(extent.width) / float(extent.height))), "bad camera"))
        return 1;
    auto image = renderer->renderImage(extent);
    if (failed(image, "rendering failed") || failed(iso::writePng(*image, prefix + ".png"), "cannot write the image"))
        return 1;

    std::printf("%s on %s: %zu triangles at isovalue %g -> %s.ply, %s.png\n", source.c_str(),
                context->deviceName().c_str(), mesh->indices.size() / 3, isovalue, prefix.c_str(), prefix.c_str());
    return 0;
}
