// Raw and raw-encoded NRRD files read in place: pread of exactly the planes
// asked for, so that the process holds one slab, never the file (mmap would
// count the mapped pages in its resident set). A slab is read in pieces on
// every core: one thread's copies out of the page cache (or one request in
// flight to an NVMe disk) are far slower than the device's uploads.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/error.h"
#include "core/parallel_for.h"
#include "core/text.h"
#include "volume/gzip_source.h"
#include "volume/read_support.h"
#include "volume/volume_source.h"

namespace isoscope {

namespace {

namespace fs = std::filesystem;

// Pieces of this size keep every core busy on a slab of a few hundred MiB.
constexpr uint64_t kReadPieceBytes = uint64_t(8) << 20;

class FileSource final : public VolumeSource {
public:
    explicit FileSource(InPlaceLayout layout)
        : VolumeSource(std::move(layout.grid)), path_(layout.dataPath), offset_(layout.offset),
          bigEndian_(layout.bigEndian)
    {
        fd_ = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd_ < 0)
            fail("cannot open '" + path_.string() + "': " + std::strerror(errno));
        ::posix_fadvise(fd_, 0, 0, POSIX_FADV_SEQUENTIAL); // a hint: larger read-ahead
        for (uint32_t d : grid_.dims)
            if (d < 2)
                fail("'" + grid_.source + "': streamed extraction needs at least 2 samples along each axis");
    }
    ~FileSource() override { ::close(fd_); }

    void readPlanes(uint32_t firstPlane, uint32_t planeCount, std::byte* destination) override
    {
        checkPlanes(firstPlane, planeCount);
        uint64_t bytes = planeBytes() * planeCount;
        uint64_t position = offset_ + planeBytes() * firstPlane;
        // Pieces whole samples long, so each is put in host order on its own.
        uint64_t piece = kReadPieceBytes - kReadPieceBytes % scalarSize(grid_.type);
        uint64_t pieces = (bytes + piece - 1) / piece;
        parallelFor(pieces, hostThreads(), [&](uint64_t i) {
            uint64_t begin = i * piece, end = std::min(bytes, begin + piece);
            readRange(firstPlane, planeCount, position + begin, destination + begin, end - begin);
            readsupport::toHostOrder({destination + begin, size_t(end - begin)}, grid_.type, bigEndian_);
        });
    }

private:
    void readRange(uint32_t firstPlane, uint32_t planeCount, uint64_t position, std::byte* destination,
                   uint64_t bytes) const
    {
        for (uint64_t done = 0; done < bytes;) {
            size_t chunk = size_t(std::min<uint64_t>(bytes - done, uint64_t(1) << 30));
            ssize_t got = ::pread(fd_, destination + done, chunk, off_t(position + done));
            if (got < 0 && errno == EINTR)
                continue;
            if (got <= 0)
                fail("reading planes " + std::to_string(firstPlane) + ".." + std::to_string(firstPlane + planeCount) +
                     " of '" + path_.string() + "' at byte " + std::to_string(position + done) + ": " +
                     (got < 0 ? std::strerror(errno) : "the file ended early (was it truncated?)"));
            done += uint64_t(got);
        }
    }

    fs::path path_;
    uint64_t offset_;
    bool bigEndian_;
    int fd_ = -1;
};

} // namespace

std::unique_ptr<VolumeSource> openFileSource(const fs::path& path, const RawOptions& options)
{
    std::string extension = lowercase(path.extension().string());
    if (extension == ".raw")
        return std::make_unique<FileSource>(describeRaw(path, options));
    if (extension == ".nrrd" || extension == ".nhdr") {
        InPlaceLayout layout = describeNrrdInPlace(path);
        if (layout.gzip)
            return openGzipSource(std::move(layout));
        return std::make_unique<FileSource>(std::move(layout));
    }
    fail("'" + path.string() + "': streamed extraction reads raw files (.raw) and NRRD (.nrrd, .nhdr) with raw or "
         "gzip encoding; convert this one (`isoscope convert`) or leave out --stream");
}

} // namespace isoscope
