#include "io/mesh_stream.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <glm/geometric.hpp>

#include "core/error.h"
#include "core/parallel_for.h"
#include "core/text.h"
#include "mesh/world_transform.h"

namespace isoscope {

namespace {

namespace fs = std::filesystem;

// Positions and normals of a part, placed as the whole mesh would be.
class Placer {
public:
    Placer(const Volume& grid, MeshPlacement placement)
        : grid_(grid), placement_(placement),
          flips_(placement == MeshPlacement::World && placeInWorldFlipsFaces(grid))
    {
    }

    Mesh place(std::span<const GpuMeshVertex> vertices) const
    {
        Mesh part;
        part.positions.reserve(vertices.size());
        part.normals.reserve(vertices.size());
        for (const GpuMeshVertex& v : vertices) {
            part.positions.emplace_back(v.position[0], v.position[1], v.position[2]);
            part.normals.emplace_back(v.normal[0], v.normal[1], v.normal[2]);
        }
        if (placement_ == MeshPlacement::IndexSpace)
            toIndexSpace(part, grid_);
        else
            placeInWorld(part, grid_);
        return part;
    }
    bool flips() const { return flips_; }
    // Whether placing changes nothing: the GPU's vertices are in world units
    // (origin + index × spacing) and only a rotation or flip would move them.
    bool identity() const { return placement_ == MeshPlacement::World && !grid_.indexToWorld; }

private:
    const Volume& grid_;
    MeshPlacement placement_;
    bool flips_;
};

void seekOrFail(FILE* file, long offset, int whence, const fs::path& path)
{
    if (std::fseek(file, offset, whence) != 0)
        fail("cannot write '" + path.string() + "' as the mesh is made: it is not a file that can be rewound");
}

// PLY: the header (its counts padded to a fixed width by a comment, so they
// can be rewritten in place), the vertices as they come, the faces into a
// temporary file appended at commit().
class PlyStreamWriter final : public StreamedMeshWriter {
public:
    PlyStreamWriter(const fs::path& path, const Volume& grid, MeshPlacement placement, IfExists ifExists)
        : path_(path), out_(path, ifExists), placer_(grid, placement)
    {
        faces_ = std::tmpfile();
        if (!faces_)
            fail("cannot write '" + path.string() + "': no temporary file for its faces");
        out_.write(header());
    }
    ~PlyStreamWriter() override
    {
        if (faces_)
            std::fclose(faces_);
    }

    void addVertices(std::span<const GpuMeshVertex> vertices) override
    {
        static_assert(sizeof(GpuMeshVertex) == 6 * sizeof(float), "a PLY vertex: x y z nx ny nz");
        if (placer_.identity()) { // the GPU's layout is the file's
            out_.write(vertices.data(), vertices.size_bytes());
            vertexCount_ += vertices.size();
            return;
        }
        Mesh part = placer_.place(vertices);
        std::vector<float> packed;
        packed.reserve(vertices.size() * 6);
        for (size_t v = 0; v < vertices.size(); ++v)
            for (float x : {part.positions[v].x, part.positions[v].y, part.positions[v].z, part.normals[v].x,
                            part.normals[v].y, part.normals[v].z})
                packed.push_back(x);
        out_.write(packed.data(), packed.size() * sizeof(float));
        vertexCount_ += vertices.size();
    }

    void addTriangles(std::span<const uint32_t> indices) override
    {
        size_t faces = indices.size() / 3;
        packed_.resize(faces * 13);
        bool flips = placer_.flips();
        constexpr size_t piece = size_t(1) << 18; // faces packed on every core: a slab has millions
        parallelFor((faces + piece - 1) / piece, hostThreads(), [&](uint64_t item) {
            for (size_t t = item * piece; t < std::min(faces, (item + 1) * piece); ++t) {
                uint32_t face[3] = {indices[3 * t], indices[3 * t + 1], indices[3 * t + 2]};
                if (flips)
                    std::reverse(face, face + 3);
                packed_[t * 13] = 3;
                std::memcpy(&packed_[t * 13 + 1], face, sizeof face);
            }
        });
        std::vector<char>& packed = packed_;
        if (!packed.empty() && std::fwrite(packed.data(), 1, packed.size(), faces_) != packed.size())
            fail("cannot write '" + path_.string() + "': writing its faces to a temporary file failed (disk full?)");
        faceCount_ += indices.size() / 3;
    }

    void commit(const Progress& progress) override
    {
        FILE* file = out_.stream();
        std::fflush(file);
        seekOrFail(file, 0, SEEK_SET, path_);
        out_.write(header());
        seekOrFail(file, 0, SEEK_END, path_);
        out_.reportProgress(progress, faceCount_ * 13);
        out_.append(faces_, "its faces' temporary file");
        out_.commit();
    }

private:
    std::string header() const
    {
        std::string counts = "element vertex " + std::to_string(vertexCount_) + "\n";
        std::string faces = "element face " + std::to_string(faceCount_) + "\n";
        // Two counts of up to 20 digits take at most 70 bytes: the comment keeps the header's length.
        std::string padding = "comment" + std::string(70 - (counts.size() + faces.size()), ' ') + "\n";
        return "ply\nformat binary_little_endian 1.0\ncomment written by isoscope\n" + padding + counts +
               "property float x\nproperty float y\nproperty float z\n"
               "property float nx\nproperty float ny\nproperty float nz\n" +
               faces + "property list uchar uint vertex_indices\nend_header\n";
    }

    fs::path path_;
    OutputFile out_;
    Placer placer_;
    FILE* faces_ = nullptr;
    std::vector<char> packed_; // kept from part to part: no fresh pages each time
    uint64_t vertexCount_ = 0, faceCount_ = 0;
};

// Binary STL: a facet per triangle as it comes, which needs the positions of
// the vertices it names: this part's and the part before's (a slab's
// triangles name vertices of its own and of the slab before).
class StlStreamWriter final : public StreamedMeshWriter {
public:
    StlStreamWriter(const fs::path& path, const Volume& grid, MeshPlacement placement, IfExists ifExists)
        : path_(path), out_(path, ifExists), placer_(grid, placement)
    {
        writeHeader();
    }

    void addVertices(std::span<const GpuMeshVertex> vertices) override
    {
        if (partDone_) { // the first vertices of a new part
            previousFirst_ = currentFirst_;
            previous_ = std::move(current_);
            currentFirst_ = previousFirst_ + previous_.size();
            current_.clear();
            partDone_ = false;
        }
        MeshArray<glm::vec3> placed = placer_.place(vertices).positions;
        current_.insert(current_.end(), placed.begin(), placed.end());
    }

    void addTriangles(std::span<const uint32_t> indices) override
    {
        partDone_ = true;
        std::vector<char> packed(indices.size() / 3 * 50);
        for (size_t t = 0; t < indices.size() / 3; ++t) {
            glm::vec3 p[3];
            for (int k = 0; k < 3; ++k)
                p[k] = position(indices[3 * t + k]);
            if (placer_.flips())
                std::swap(p[1], p[2]);
            glm::vec3 normal = glm::cross(p[1] - p[0], p[2] - p[0]);
            float length = glm::length(normal);
            normal = length > 0.0f ? normal / length : glm::vec3(0.0f);
            char* facet = &packed[t * 50];
            std::memcpy(facet, &normal, 12);
            std::memcpy(facet + 12, p, 36);
            std::memset(facet + 48, 0, 2);
        }
        out_.write(packed.data(), packed.size());
        faceCount_ += indices.size() / 3;
        if (faceCount_ > UINT32_MAX)
            fail("cannot write '" + path_.string() + "': more than 2^32 - 1 triangles, which binary STL cannot "
                 "count (write .ply instead)");
    }

    void commit(const Progress&) override
    {
        FILE* file = out_.stream();
        std::fflush(file);
        seekOrFail(file, 0, SEEK_SET, path_);
        writeHeader();
        seekOrFail(file, 0, SEEK_END, path_);
        out_.commit();
    }

private:
    void writeHeader()
    {
        std::string header = "binary STL written by isoscope";
        header.resize(80, ' ');
        uint32_t count = uint32_t(faceCount_);
        out_.write(header);
        out_.write(&count, 4);
    }

    glm::vec3 position(uint64_t index) const
    {
        if (index >= currentFirst_ && index - currentFirst_ < current_.size())
            return current_[index - currentFirst_];
        if (index >= previousFirst_ && index - previousFirst_ < previous_.size())
            return previous_[index - previousFirst_];
        fail("a streamed triangle names vertex " + std::to_string(index) +
             ", older than the slab before (an engine bug)");
    }

    fs::path path_;
    OutputFile out_;
    Placer placer_;
    std::vector<glm::vec3> previous_, current_;
    uint64_t previousFirst_ = 0, currentFirst_ = 0, faceCount_ = 0;
    bool partDone_ = true; // its triangles came: the next vertices start a part
};

} // namespace

bool streamsMeshFormat(const fs::path& path)
{
    std::string extension = lowercase(path.extension().string());
    std::error_code ignored;
    bool device = fs::exists(path, ignored) && !fs::is_regular_file(path, ignored);
    return !device && (extension == ".ply" || extension == ".stl");
}

std::unique_ptr<StreamedMeshWriter> openStreamedMeshWriter(const fs::path& path, const Volume& grid,
                                                           MeshPlacement placement, IfExists ifExists)
{
    std::string extension = lowercase(path.extension().string());
    if (extension == ".ply")
        return std::make_unique<PlyStreamWriter>(path, grid, placement, ifExists);
    if (extension == ".stl")
        return std::make_unique<StlStreamWriter>(path, grid, placement, ifExists);
    fail("'" + path.string() + "': only binary PLY (.ply) and STL (.stl) are written as the mesh is made");
}

} // namespace isoscope
