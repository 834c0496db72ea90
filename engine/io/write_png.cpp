#include "io/image_io.h"

#include "core/error.h"

// The one implementation of stb_image_write in isoscope (libstb-dev's header).
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>

namespace isoscope {

void writePng(const RgbaImage& image, const std::filesystem::path& path)
{
    if (image.width == 0 || image.height == 0 || image.pixels.size() != size_t(image.width) * image.height * 4)
        fail("cannot write " + path.string() + ": the image is empty or its pixels do not match its size (engine bug)");
    if (!stbi_write_png(path.string().c_str(), int(image.width), int(image.height), 4, image.pixels.data(),
                        int(image.width * 4)))
        fail("cannot write " + path.string() + ": check that its folder exists and is writable");
}

} // namespace isoscope
