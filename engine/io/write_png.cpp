#include "io/image_io.h"

#include <string>

#include "core/error.h"

// The one implementation of stb_image_write in isoscope (libstb-dev's header).
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>

namespace isoscope {

void writePng(const RgbaImage& image, const std::filesystem::path& path, IfExists ifExists)
{
    if (image.width == 0 || image.height == 0 || image.pixels.size() != size_t(image.width) * image.height * 4)
        fail("cannot write " + path.string() + ": the image is empty or its pixels do not match its size (engine bug)");
    OutputFile file(path, ifExists);
    // Encoded in memory and written through OutputFile: stbi_write_png's own
    // file output checks neither its writes nor the close.
    std::string png;
    auto append = [](void* context, void* data, int size) {
        static_cast<std::string*>(context)->append(static_cast<const char*>(data), size_t(size));
    };
    if (!stbi_write_png_to_func(append, &png, int(image.width), int(image.height), 4, image.pixels.data(),
                                int(image.width * 4)))
        fail("cannot write " + path.string() + ": encoding the PNG failed (out of memory)");
    file.write(png);
    file.commit();
}

} // namespace isoscope
