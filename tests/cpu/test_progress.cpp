// Progress of long reads and writes (core/progress.h): each piece of work is
// reported from 0, in steps of at most kProgressStepBytes, to done == total
// exactly once. What the terminal shows of it, for every reader (NIfTI
// included), is tests/cli/test_cli_progress.py.
#include <sys/stat.h>

#include <thread>

#include "io/mesh_io.h"
#include "io/mesh_stream.h"
#include "volume/readers.h"
#include "volume/write_nrrd.h"
#include "volume_test_support.h"

using namespace isoscope;
using namespace volumetest;

namespace {

struct Recorded {
    std::string what, items;
    uint64_t done, total, bytesDone;
};

struct Recorder {
    std::vector<Recorded> steps;
    Progress progress()
    {
        return [this](const ProgressStep& step) {
            steps.push_back({std::string(step.what), std::string(step.items), step.done, step.total, step.bytesDone});
        };
    }
    // The steps of one piece of work, in order.
    std::vector<Recorded> of(const std::string& what) const
    {
        std::vector<Recorded> found;
        for (const Recorded& step : steps)
            if (step.what == what)
                found.push_back(step);
        return found;
    }
};

// From 0 to total, rising by at most `largestStep`, the end reported once.
void requireWholeRun(const std::vector<Recorded>& steps, uint64_t total, uint64_t largestStep = kProgressStepBytes)
{
    REQUIRE(steps.size() >= 2);
    CHECK(steps.front().done == 0);
    for (size_t i = 0; i < steps.size(); ++i) {
        INFO("step " << i << ": " << steps[i].done << " of " << steps[i].total);
        CHECK(steps[i].total == total);
        CHECK((steps[i].done == total) == (i + 1 == steps.size()));
        if (i > 0) {
            CHECK(steps[i].done > steps[i - 1].done);
            CHECK(steps[i].done - steps[i - 1].done <= largestStep);
        }
    }
}

// 20 MiB of uint8 samples: three steps of reading.
Volume largeVolume()
{
    Volume volume;
    volume.dims = {256, 256, 320};
    volume.type = ScalarType::UInt8;
    volume.data.resize(volume.byteSize());
    for (size_t i = 0; i < volume.data.size(); ++i)
        volume.data[i] = std::byte(i % 251);
    return volume;
}

// A mesh of a million vertices: its binary files take more than one step to write.
Mesh largeMesh()
{
    Mesh mesh;
    for (uint32_t v = 0; v < 1'000'000; ++v)
        mesh.positions.push_back({float(v % 1000), float(v / 1000), float(v % 7)});
    for (uint32_t v = 0; v + 2 < 1'000'000; v += 3)
        mesh.indices.insert(mesh.indices.end(), {v, v + 1, v + 2});
    return mesh;
}

} // namespace

TEST_CASE("a raw or NRRD read reports its bytes from 0 to the whole in steps", "[volume][progress]")
{
    Volume volume = largeVolume();
    fs::path raw = tmpPath("progress_256x256x320_uint8.raw");
    writeFile(raw, "", volume.data);
    Recorder recorder;
    RawOptions options;
    options.progress = recorder.progress();
    Volume read = readVolumeFile(raw, options);
    CHECK(read.data == volume.data);
    requireWholeRun(recorder.of("reading '" + raw.filename().string() + "'"), volume.byteSize());
    CHECK(recorder.of("reading '" + raw.filename().string() + "'").size() == 4); // 0, 8, 16, 20 MiB

    fs::path nrrd = tmpPath("progress.nrrd");
    writeNrrd(volume, nrrd);
    recorder.steps.clear();
    readVolumeFile(nrrd, options);
    requireWholeRun(recorder.of("reading 'progress.nrrd'"), volume.byteSize()); // the samples after the header
    CHECK(recorder.steps.size() == 4);
}

TEST_CASE("a gzip-compressed read reports the file's bytes, then the bytes decompressed", "[volume][progress]")
{
    Volume volume = largeVolume();
    fs::path path = tmpPath("progress_gzip.nrrd");
    writeFile(path, "NRRD0004\ntype: uint8\ndimension: 3\nsizes: 256 256 320\nencoding: gzip\n\n",
              compress(volume.data, true));
    Recorder recorder;
    RawOptions options;
    options.progress = recorder.progress();
    CHECK(readVolumeFile(path, options).data == volume.data);
    std::vector<Recorded> reading = recorder.of("reading 'progress_gzip.nrrd'");
    std::vector<Recorded> decompressing = recorder.of("decompressing 'progress_gzip.nrrd'");
    REQUIRE(!reading.empty());
    requireWholeRun(reading, reading.back().total);
    requireWholeRun(decompressing, volume.byteSize());
    CHECK(recorder.steps.size() == reading.size() + decompressing.size());
    CHECK(recorder.steps[reading.size() - 1].what == reading.back().what); // one after the other
}

TEST_CASE("every mesh writer reports its bytes (OBJ its lines) and the end once the file is in place",
          "[mesh][progress]")
{
    Mesh mesh = largeMesh();
    for (std::string extension : {".ply", ".obj", ".stl", ".vtp", ".gltf", ".glb"}) {
        INFO(extension);
        fs::path path = tmpPath("progress" + extension);
        fs::remove(gltfBufferFile(path));
        Recorder recorder;
        writeMesh(mesh, path, {IfExists::Replace, recorder.progress()});
        fs::path reported = extension == ".gltf" ? gltfBufferFile(path) : path; // the .gltf's JSON is small
        std::vector<Recorded> steps = recorder.of("writing '" + reported.filename().string() + "'");
        REQUIRE(steps.size() == recorder.steps.size());
        REQUIRE(steps.size() >= 3); // more than one step
        if (extension == ".obj") {
            CHECK(steps.back().items == "lines");
            uint64_t lines = 1 + mesh.positions.size() + mesh.faceCount();
            requireWholeRun(steps, lines, lines);
            CHECK(steps.back().bytesDone == fs::file_size(path));
        } else {
            CHECK(steps.back().items.empty());
            requireWholeRun(steps, fs::file_size(reported));
        }
    }
}

TEST_CASE("a mesh read reports the file's bytes", "[mesh][progress]")
{
    Mesh mesh = largeMesh();
    for (std::string extension : {".ply", ".obj"}) {
        INFO(extension);
        fs::path path = tmpPath("progress_read" + extension);
        writeMesh(mesh, path);
        Recorder recorder;
        CHECK(readMesh(path, recorder.progress()).positions.size() == mesh.positions.size());
        requireWholeRun(recorder.of("reading '" + path.filename().string() + "'"), fs::file_size(path));
        CHECK(recorder.steps.size() >= 3);
    }
}

TEST_CASE("a write that fails reports no end", "[mesh][progress]")
{
    Recorder recorder;
    fs::path unopenable = tmpPath("no such folder") / "surface.ply";
    CHECK_THROWS_WITH(writeMesh(largeMesh(), unopenable, {IfExists::Replace, recorder.progress()}),
                      Catch::Contains("surface.ply"));
    CHECK(recorder.steps.empty()); // not even opened

    fs::path full = "/dev/full"; // every write fails with ENOSPC
    if (!fs::exists(full))
        return;
    OutputFile file(full, IfExists::Replace);
    file.reportProgress(recorder.progress(), uint64_t(32) << 20);
    std::vector<char> zeros(uint64_t(32) << 20);
    CHECK_THROWS_WITH(file.write(zeros.data(), zeros.size()), Catch::Contains("/dev/full"));
    REQUIRE(!recorder.steps.empty());
    CHECK(recorder.steps.back().done < recorder.steps.back().total);
}

TEST_CASE("a streamed PLY reports its faces' bytes from 0 as they are appended, and holds them", "[mesh][progress]")
{
    // 2 M triangles: 26 MB of faces, four steps.
    Volume grid;
    grid.dims = {4, 4, 4};
    std::vector<GpuMeshVertex> vertices(1000);
    for (size_t v = 0; v < vertices.size(); ++v)
        vertices[v] = {{float(v), float(v % 7), 1.0f}, {0.0f, 0.0f, 1.0f}};
    std::vector<uint32_t> indices(6'000'000);
    for (size_t i = 0; i < indices.size(); ++i)
        indices[i] = uint32_t((i * 7919) % vertices.size());
    fs::path path = tmpPath("streamed_progress.ply");
    Recorder recorder;
    {
        auto writer = openStreamedMeshWriter(path, grid, MeshPlacement::IndexSpace, IfExists::Replace);
        writer->addVertices(vertices);
        writer->addTriangles(std::span(indices).first(3'000'000));
        writer->addTriangles(std::span(indices).subspan(3'000'000));
        writer->commit(recorder.progress());
    }
    requireWholeRun(recorder.of("writing 'streamed_progress.ply'"), uint64_t(indices.size() / 3) * 13);
    Mesh read = readMesh(path);
    CHECK(read.positions.size() == vertices.size());
    CHECK(read.indices == indices);
}

TEST_CASE("OutputFile::append copies a file whole into a regular file and into a pipe", "[mesh][progress]")
{
    std::vector<char> body((size_t(20) << 20) + 4321);
    for (size_t i = 0; i < body.size(); ++i)
        body[i] = char(i * 131 % 251);
    FILE* source = std::tmpfile();
    REQUIRE(source);
    REQUIRE(std::fwrite(body.data(), 1, body.size(), source) == body.size()); // left unflushed: append flushes it
    std::string expected = "header " + std::string(body.begin(), body.end()) + " tail";
    auto contents = [](const fs::path& path) {
        std::ifstream in(path, std::ios::binary);
        return std::string(std::istreambuf_iterator<char>(in), {});
    };
    auto writeTo = [&](const fs::path& path) {
        OutputFile out(path, IfExists::Replace);
        out.write("header ");
        out.append(source, "the test's file");
        out.write(" tail");
        out.commit();
    };

    fs::path file = tmpPath("append_target.bin"); // the kernel's copy where it offers one
    writeTo(file);
    CHECK(contents(file) == expected);

    // A pipe takes no copy_file_range: the rest read and written.
    fs::path fifo = tmpPath("append_target.fifo");
    fs::remove(fifo);
    REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
    std::string received;
    std::thread reader([&] { received = contents(fifo); });
    try {
        writeTo(fifo);
    } catch (...) {
        std::ofstream unblock(fifo); // the reader's open returns, then its read ends
        unblock.close();
        reader.join();
        throw;
    }
    reader.join();
    CHECK(received == expected);
    std::fclose(source);
    fs::remove(fifo);
}
