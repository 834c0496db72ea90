#include "volume/gzip_source.h"

#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include "core/error.h"
#include "volume/read_support.h"
#include "volume/volume_source.h"

namespace isoscope {

namespace {

namespace fs = std::filesystem;

constexpr uint64_t kCompressedChunkBytes = uint64_t(4) << 20;
// Streamed extraction's slabs share up to 3 planes with the slab before.
constexpr uint32_t kKeptPlanes = 4;

class GzipSource final : public VolumeSource {
public:
    explicit GzipSource(InPlaceLayout layout)
        : VolumeSource(std::move(layout.grid)), path_(layout.dataPath), offset_(layout.offset),
          skip_(layout.gzipSkip), bigEndian_(layout.bigEndian)
    {
        fd_ = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd_ < 0)
            fail("cannot open '" + path_.string() + "': " + std::strerror(errno));
        fileBytes_ = readsupport::fileSize(path_);
        input_.resize(size_t(kCompressedChunkBytes));
        for (uint32_t d : grid_.dims)
            if (d < 2)
                fail("'" + grid_.source + "': streamed extraction needs at least 2 samples along each axis");
        restart();
    }
    ~GzipSource() override
    {
        inflateEnd(&stream_);
        ::close(fd_);
    }

    void readPlanes(uint32_t firstPlane, uint32_t planeCount, std::byte* destination) override
    {
        checkPlanes(firstPlane, planeCount);
        uint64_t bytes = planeBytes();
        uint32_t end = firstPlane + planeCount;
        if (firstPlane < nextPlane_ - std::min(nextPlane_, keptCount_))
            restart();
        // Planes already inflated come from the kept ones; planes before the first asked are inflated and dropped.
        uint32_t plane = firstPlane;
        for (; plane < std::min(end, nextPlane_); ++plane)
            std::memcpy(destination + uint64_t(plane - firstPlane) * bytes,
                        kept_.data() + uint64_t(plane - (nextPlane_ - keptCount_)) * bytes, size_t(bytes));
        std::vector<std::byte> dropped;
        while (nextPlane_ < firstPlane) {
            dropped.resize(size_t(bytes));
            inflateInto(dropped.data(), bytes);
            ++nextPlane_;
        }
        if (plane < end) {
            std::byte* fresh = destination + uint64_t(plane - firstPlane) * bytes;
            inflateInto(fresh, uint64_t(end - plane) * bytes);
            readsupport::toHostOrder({fresh, size_t(uint64_t(end - plane) * bytes)}, grid_.type, bigEndian_);
            nextPlane_ = end;
            if (end == grid_.dims[2])
                requireStreamEnd();
        }
        keepLast(firstPlane, planeCount, destination);
    }

private:
    void restart()
    {
        if (started_)
            inflateEnd(&stream_);
        stream_ = z_stream{};
        started_ = inflateInit2(&stream_, 15 + 32) == Z_OK; // +32: a gzip or zlib header
        if (!started_)
            fail("'" + path_.string() + "': zlib could not start");
        inputPosition_ = offset_;
        nextPlane_ = 0;
        keptCount_ = 0;
        std::vector<std::byte> skipped(size_t(std::min<uint64_t>(skip_, kCompressedChunkBytes)));
        for (uint64_t done = 0; done < skip_; done += skipped.size())
            inflateInto(skipped.data(), std::min<uint64_t>(skipped.size(), skip_ - done));
    }

    // Exactly `bytes` bytes of the inflated stream, or Error.
    void inflateInto(std::byte* out, uint64_t bytes)
    {
        uint64_t done = 0;
        while (done < bytes) {
            if (stream_.avail_in == 0)
                refill();
            uint64_t room = std::min<uint64_t>(bytes - done, uint64_t(1) << 30);
            stream_.next_out = reinterpret_cast<Bytef*>(out + done);
            stream_.avail_out = uInt(room);
            int status = inflate(&stream_, Z_NO_FLUSH);
            done += room - stream_.avail_out;
            if (status == Z_STREAM_END) {
                if (done < bytes && !moreInput())
                    failShort(done, bytes);
                inflateReset(&stream_); // the next member of a concatenated gzip file
                continue;
            }
            if (status == Z_BUF_ERROR && !moreInput())
                failShort(done, bytes);
            if (status != Z_OK && status != Z_BUF_ERROR)
                readsupport::failFile(path_, std::string("corrupt compressed data (zlib: ") +
                                                 (stream_.msg ? stream_.msg : "error " + std::to_string(status)) +
                                                 ")");
        }
    }

    // After the last plane: nothing more may come out of the stream.
    void requireStreamEnd()
    {
        std::byte spare{};
        while (true) {
            if (stream_.avail_in == 0 && moreInput())
                refill();
            stream_.next_out = reinterpret_cast<Bytef*>(&spare);
            stream_.avail_out = 1;
            int status = inflate(&stream_, Z_NO_FLUSH);
            if (stream_.avail_out == 0)
                readsupport::failFile(path_, "the compressed data hold more than the header's sizes and type "
                                             "describe; check them");
            if (status == Z_STREAM_END) {
                if (!moreInput())
                    return;
                inflateReset(&stream_);
                continue;
            }
            if (status == Z_BUF_ERROR && !moreInput())
                return; // a stream whose trailer is missing still gave every sample
            if (status != Z_OK && status != Z_BUF_ERROR)
                readsupport::failFile(path_, "corrupt compressed data after the last sample");
        }
    }

    bool moreInput() const { return stream_.avail_in > 0 || inputPosition_ < fileBytes_; }

    void refill()
    {
        if (inputPosition_ >= fileBytes_)
            return;
        size_t chunk = size_t(std::min<uint64_t>(kCompressedChunkBytes, fileBytes_ - inputPosition_));
        ssize_t got;
        do
            got = ::pread(fd_, input_.data(), chunk, off_t(inputPosition_));
        while (got < 0 && errno == EINTR);
        if (got <= 0)
            readsupport::failFile(path_, std::string("reading compressed data at byte ") +
                                             std::to_string(inputPosition_) + ": " +
                                             (got < 0 ? std::strerror(errno) : "the file ended early"));
        inputPosition_ += uint64_t(got);
        stream_.next_in = reinterpret_cast<Bytef*>(input_.data());
        stream_.avail_in = uInt(got);
    }

    [[noreturn]] void failShort(uint64_t done, uint64_t bytes) const
    {
        readsupport::failFile(path_, "compressed data end " + std::to_string(bytes - done) + " bytes before plane " +
                                         std::to_string(nextPlane_) + " of " + std::to_string(grid_.dims[2]) +
                                         " ends (truncated file or wrong sizes)");
    }

    // The last planes of [firstPlane, firstPlane + planeCount), as given (host order).
    void keepLast(uint32_t firstPlane, uint32_t planeCount, const std::byte* given)
    {
        uint32_t end = firstPlane + planeCount;
        if (end != nextPlane_)
            return; // planes served from the kept ones alone: those stay
        uint32_t count = std::min(planeCount, kKeptPlanes);
        uint64_t bytes = planeBytes();
        kept_.resize(size_t(bytes * count));
        std::memcpy(kept_.data(), given + uint64_t(planeCount - count) * bytes, size_t(bytes * count));
        keptCount_ = count;
    }

    fs::path path_;
    uint64_t offset_, skip_;
    bool bigEndian_;
    int fd_ = -1;
    uint64_t fileBytes_ = 0, inputPosition_ = 0;
    z_stream stream_{};
    bool started_ = false;
    std::vector<std::byte> input_;
    uint32_t nextPlane_ = 0; // the next plane the stream gives
    std::vector<std::byte> kept_; // planes [nextPlane_ - keptCount_, nextPlane_), host order
    uint32_t keptCount_ = 0;
};

} // namespace

std::unique_ptr<VolumeSource> openGzipSource(InPlaceLayout layout)
{
    return std::make_unique<GzipSource>(std::move(layout));
}

} // namespace isoscope
