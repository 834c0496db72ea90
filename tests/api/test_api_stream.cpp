// Streamed extraction through the public API (isoscope/stream.h): the same
// mesh as Isosurface::extract from a synthetic spec and from the host's
// planes, and a host whose planes fail leaves its error and no file.
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "api_fixture.h"

namespace iso = isoscope::api;
using api_test::ApiContext;
using api_test::errorOf;
using Catch::Matchers::Contains;

namespace {

std::filesystem::path scratch(const std::string& name)
{
    const char* tmp = std::getenv("ISOSCOPE_TEST_TMP");
    std::filesystem::path dir = std::filesystem::path(tmp && *tmp ? tmp : "/tmp") / "api-stream";
    std::filesystem::create_directories(dir);
    return dir / name;
}

} // namespace

TEST_CASE("extractStreamed writes the mesh Isosurface::extract makes, from a spec and from host planes", "[api]")
{
    ApiContext api;
    auto volume = iso::Volume::load(api.context, "torus:20x18x26");
    REQUIRE(volume.ok());
    auto surface = iso::Isosurface::create(api.context, *volume);
    REQUIRE(surface.ok());
    auto mesh = surface->extract(0.04f);
    REQUIRE(mesh.ok());

    iso::StreamOptions options;
    options.maxSlabLayers = 6;
    std::filesystem::path fromSpec = scratch("torus.ply");
    auto stats = iso::extractStreamed(api.context, "torus:20x18x26", 0.04f, fromSpec.string(), options);
    REQUIRE(stats.ok());
    CHECK(stats->slabs == 5);
    CHECK(stats->vertices == mesh->positions.size());
    CHECK(stats->triangles == mesh->indices.size() / 3);
    CHECK(std::filesystem::exists(fromSpec));

    // The same grid from the host, plane by plane: a sphere of distances.
    iso::VolumeDesc desc{{16, 15, 22}, iso::ScalarType::Float32};
    auto planes = [&](uint32_t first, uint32_t count, void* out) -> iso::Status {
        auto* values = static_cast<float*>(out);
        for (uint32_t z = first; z < first + count; ++z)
            for (uint32_t y = 0; y < 15; ++y)
                for (uint32_t x = 0; x < 16; ++x)
                    *values++ = std::hypot(float(x) - 7.5f, float(y) - 7.0f, float(z) - 10.5f);
        return {};
    };
    std::vector<float> whole(16 * 15 * 22);
    REQUIRE(planes(0, 22, whole.data()).ok());
    auto held = iso::Volume::fromMemory(api.context, desc, whole.data(), whole.size() * sizeof(float));
    REQUIRE(held.ok());
    auto heldSurface = iso::Isosurface::create(api.context, *held);
    REQUIRE(heldSurface.ok());
    auto heldMesh = heldSurface->extract(6.0f);
    REQUIRE(heldMesh.ok());
    std::filesystem::path fromHost = scratch("host.stl");
    auto hostStats = iso::extractStreamed(api.context, desc, planes, 6.0f, fromHost.string(), options);
    REQUIRE(hostStats.ok());
    CHECK(hostStats->vertices == heldMesh->positions.size());
    CHECK(std::filesystem::file_size(fromHost) == 84 + 50 * heldMesh->indices.size() / 3);

    // The scan method streams into its own in-core mesh; the methods whose work spans the volume do not stream.
    auto scanSurface = iso::Isosurface::create(api.context, *held, {iso::Method::Scan});
    REQUIRE(scanSurface.ok());
    auto scanMesh = scanSurface->extract(6.0f);
    REQUIRE(scanMesh.ok());
    iso::StreamOptions scan = options;
    scan.method = iso::Method::Scan;
    auto scanStats = iso::extractStreamed(api.context, desc, planes, 6.0f, scratch("scan.stl").string(), scan);
    REQUIRE(scanStats.ok());
    CHECK(scanStats->vertices == scanMesh->positions.size());
    CHECK(scanStats->triangles == scanMesh->indices.size() / 3);
    iso::StreamOptions dual = options;
    dual.method = iso::Method::Dual;
    CHECK_THAT(errorOf(iso::extractStreamed(api.context, desc, planes, 6.0f, scratch("dual.stl").string(), dual)).message,
               Contains("--method block or --method scan"));
}

TEST_CASE("extractStreamed stops at the host's error and leaves no mesh file", "[api]")
{
    ApiContext api;
    iso::VolumeDesc desc{{12, 12, 30}, iso::ScalarType::Float32};
    auto planes = [](uint32_t first, uint32_t count, void* out) -> iso::Status {
        if (first + count > 20)
            return iso::Error{iso::ErrorCode::InvalidFile, "the simulation's step 20 is missing"};
        std::memset(out, 0, size_t(count) * 12 * 12 * sizeof(float));
        return {};
    };
    iso::StreamOptions options;
    options.maxSlabLayers = 4;
    std::filesystem::path path = scratch("failed.ply");
    std::filesystem::remove(path);
    iso::Error error = errorOf(iso::extractStreamed(api.context, desc, planes, 0.5f, path.string(), options));
    CHECK_THAT(error.message, Contains("the simulation's step 20 is missing"));
    CHECK(!std::filesystem::exists(path));
    iso::VolumeDesc flat = desc;
    flat.dims[0] = 1;
    CHECK_THAT(errorOf(iso::extractStreamed(api.context, flat, planes, 0.5f, path.string())).message,
               Contains("dims[0]"));
}
