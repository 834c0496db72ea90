#include "io/mesh_file_support.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <sys/stat.h>
#include <unistd.h>

#include "core/error.h"
#include "core/text.h"

namespace isoscope {

namespace {

[[noreturn]] void failRead(const std::filesystem::path& path, const std::string& problem)
{
    fail("cannot read mesh " + path.string() + ": " + problem);
}

} // namespace

std::string readRegularFile(const std::filesystem::path& path, uint64_t maxBytes, const Progress& progress)
{
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer.
    int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        failRead(path, std::strerror(errno));
    std::unique_ptr<int, void (*)(int*)> closer(&fd, [](int* f) { close(*f); });
    struct stat status {};
    if (fstat(fd, &status) != 0)
        failRead(path, std::strerror(errno));
    if (S_ISDIR(status.st_mode))
        failRead(path, "it is a folder, not a mesh file");
    if (!S_ISREG(status.st_mode))
        failRead(path, "it is not a regular file (a device, pipe or socket); isoscope reads meshes from files");
    uint64_t size = uint64_t(status.st_size);
    if (size > maxBytes)
        failRead(path, "it has " + std::to_string(size) + " bytes, more than the " + std::to_string(maxBytes) +
                           " isoscope reads as a mesh; a corrupt or wrong file?");
    std::string text(size_t(size), '\0');
    std::string what = "reading '" + path.filename().string() + "'";
    reportBytes(progress, what, 0, size);
    for (size_t done = 0; done < text.size();) {
        size_t step = size_t(std::min<uint64_t>(text.size() - done, kProgressStepBytes));
        ssize_t got = read(fd, text.data() + done, step);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            failRead(path, "reading failed after " + std::to_string(done) + " bytes: " + std::strerror(errno));
        if (got == 0)
            failRead(path, "the file shrank to " + std::to_string(done) + " bytes while being read");
        done += size_t(got);
        reportBytes(progress, what, done, size);
    }
    return text;
}

std::string lowerExtension(const std::filesystem::path& path)
{
    return lowercase(path.extension().string());
}

void checkMeshForWriting(const Mesh& mesh, const std::filesystem::path& path)
{
    if (mesh.faceSize != 3 && mesh.faceSize != 4)
        fail("cannot write " + path.string() + ": faceSize is " + std::to_string(mesh.faceSize) + ", expected 3 or 4");
    if (!mesh.normals.empty() && mesh.normals.size() != mesh.positions.size())
        fail("cannot write " + path.string() + ": " + std::to_string(mesh.normals.size()) + " normals for " +
             std::to_string(mesh.positions.size()) + " vertices");
}

std::vector<uint32_t> triangleIndices(const Mesh& mesh)
{
    if (mesh.faceSize == 3)
        return {mesh.indices.begin(), mesh.indices.end()};
    std::vector<uint32_t> triangles;
    triangles.reserve(mesh.faceCount() * 6);
    for (uint64_t face = 0; face < mesh.faceCount(); ++face) {
        const uint32_t* q = mesh.indices.data() + face * 4;
        triangles.insert(triangles.end(), {q[0], q[1], q[2], q[0], q[2], q[3]});
    }
    return triangles;
}

void writeFileParts(const std::filesystem::path& path, const WriteOptions& options,
                    std::initializer_list<std::span<const char>> parts)
{
    OutputFile file(path, options.ifExists);
    uint64_t totalBytes = 0;
    for (std::span<const char> part : parts)
        totalBytes += part.size();
    file.reportProgress(options.progress, totalBytes);
    for (std::span<const char> part : parts)
        file.write(part.data(), part.size());
    file.commit();
}

} // namespace isoscope
