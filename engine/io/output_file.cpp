#include "io/output_file.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

#include "core/error.h"

namespace isoscope {

namespace fs = std::filesystem;

namespace {

bool isStdout(const fs::path& path) { return path == "-"; }

std::string quoted(const fs::path& path) { return "'" + path.string() + "'"; }

[[noreturn]] void failExists(const fs::path& path)
{
    fail("cannot write " + quoted(path) + ": the file exists and isoscope replaces no file it did not create; give "
         "--force to replace it, or another name");
}

// Renames temporary onto path, failing (EEXIST) when path exists and may not
// be replaced: renameat2's RENAME_NOREPLACE makes the check and the rename
// one step, so a file that appeared since the check is not lost either.
int renameOnto(const fs::path& temporary, const fs::path& path, IfExists ifExists)
{
    if (ifExists == IfExists::Replace)
        return std::rename(temporary.c_str(), path.c_str());
    if (renameat2(AT_FDCWD, temporary.c_str(), AT_FDCWD, path.c_str(), RENAME_NOREPLACE) == 0)
        return 0;
    if (errno != EINVAL && errno != ENOSYS)
        return -1;
    // A file system without RENAME_NOREPLACE: a hard link never replaces.
    if (link(temporary.c_str(), path.c_str()) != 0)
        return -1;
    unlink(temporary.c_str());
    return 0;
}

} // namespace

void checkOutputPath(const fs::path& path, IfExists ifExists)
{
    if (path.empty())
        fail("cannot write '': the output file name is empty; give a name");
    if (isStdout(path))
        return;
    struct stat status {};
    if (stat(path.c_str(), &status) != 0)
        return; // absent (or not reachable: opening it says why)
    if (S_ISDIR(status.st_mode))
        fail("cannot write " + quoted(path) + ": it is a folder; give a file name");
    if (S_ISREG(status.st_mode) && ifExists == IfExists::Refuse)
        failExists(path);
}

OutputFile::OutputFile(fs::path path, IfExists ifExists) : path_(std::move(path)), ifExists_(ifExists)
{
    checkOutputPath(path_, ifExists_);
    if (isStdout(path_)) {
        file_ = stdout;
        return;
    }
    struct stat status {};
    bool inPlace = stat(path_.c_str(), &status) == 0 && !S_ISREG(status.st_mode);
    int fd = -1;
    if (inPlace) {
        fd = open(path_.c_str(), O_WRONLY | O_CLOEXEC);
    } else {
        // Beside the target, so the rename stays on one file system; hidden,
        // and named after the process, so two runs never share one.
        fs::path name = "." + path_.filename().string() + ".partial-" + std::to_string(getpid());
        temporary_ = path_.parent_path() / name;
        fd = open(temporary_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    }
    if (fd < 0) {
        int error = errno;
        temporary_.clear(); // nothing was created
        fail("cannot write " + quoted(path_) + ": " + std::strerror(error) +
             (error == ENOENT ? " (check that its folder exists)" : ""));
    }
    file_ = fdopen(fd, "wb");
    if (!file_) {
        int error = errno;
        close(fd);
        failWrite("opening", error);
    }
}

OutputFile::~OutputFile()
{
    if (file_ && file_ != stdout)
        std::fclose(file_);
    if (!committed_ && !temporary_.empty())
        unlink(temporary_.c_str());
}

void OutputFile::failWrite(const std::string& what, int error)
{
    if (file_ && file_ != stdout)
        std::fclose(file_);
    file_ = nullptr;
    if (!temporary_.empty())
        unlink(temporary_.c_str());
    temporary_.clear();
    std::string name = isStdout(path_) ? "standard output" : quoted(path_);
    fail("cannot write " + name + ": " + what + " failed: " + std::strerror(error) +
         (error == ENOSPC || error == EFBIG || error == EDQUOT ? " (the disk, a quota or the file size limit is full): "
                                                                 "free some space and run again"
                                                               : ""));
}

void OutputFile::reportProgress(Progress progress, uint64_t totalBytes)
{
    progress_ = std::move(progress);
    progressWhat_ = "writing '" + path_.filename().string() + "'";
    totalBytes_ = totalBytes;
    written_ = 0; // what is written from now on
    reportBytes(progress_, progressWhat_, 0, totalBytes_);
}

void OutputFile::write(const void* data, size_t bytes)
{
    if (!file_)
        fail("cannot write " + quoted(path_) + ": the file is closed (engine bug)");
    const char* next = static_cast<const char*>(data);
    for (size_t done = 0; done < bytes;) {
        size_t step = size_t(std::min<uint64_t>(bytes - done, kProgressStepBytes));
        if (std::fwrite(next + done, 1, step, file_) != step)
            failWrite("writing " + std::to_string(bytes) + " bytes", errno);
        done += step;
        countWritten(step);
    }
}

void OutputFile::countWritten(uint64_t bytes)
{
    written_ += bytes;
    if (written_ < totalBytes_) // the end is reported by commit(), once the file is in place
        reportBytes(progress_, progressWhat_, written_, totalBytes_);
}

void OutputFile::append(FILE* source, const std::string& sourceName)
{
    if (!file_)
        fail("cannot write " + quoted(path_) + ": the file is closed (engine bug)");
    struct stat status {};
    if (std::fflush(source) != 0 || fstat(fileno(source), &status) != 0)
        fail("cannot write " + quoted(path_) + ": " + sourceName + " cannot be read back: " + std::strerror(errno));
    if (!S_ISREG(status.st_mode))
        fail("cannot write " + quoted(path_) + ": " + sourceName + " is not a regular file (engine bug)");
    if (std::fflush(file_) != 0)
        failWrite("writing", errno);
    int in = fileno(source), out = fileno(file_);
    off_t from = 0, size = status.st_size;
    // The kernel copies page-cache pages without a pass through this process
    // (a 1 GiB PLY's faces: 0.27-0.30 s against 1.4-2.1 s, docs/BENCHMARKS.md).
    while (from < size) {
        size_t step = size_t(std::min<off_t>(size - from, off_t(kProgressStepBytes)));
        ssize_t copied = copy_file_range(in, &from, out, nullptr, step, 0);
        if (copied <= 0)
            break; // not offered here (a pipe, an older kernel, some file systems): read and write the rest
        countWritten(uint64_t(copied));
    }
    // stdio's idea of the position after the kernel's writes (a target that took them can seek).
    if (from > 0 && std::fseek(file_, 0, SEEK_END) != 0)
        failWrite("seeking", errno);
    std::vector<char> chunk(size_t(std::min<off_t>(size - from, off_t(kProgressStepBytes))));
    while (from < size) {
        ssize_t got = pread(in, chunk.data(), size_t(std::min<off_t>(size - from, off_t(chunk.size()))), from);
        if (got <= 0)
            fail("cannot write " + quoted(path_) + ": reading " + sourceName + " back failed" +
                 (got < 0 ? std::string(": ") + std::strerror(errno) : std::string(" (it ended early)")));
        write(chunk.data(), size_t(got));
        from += got;
    }
}

void OutputFile::commit()
{
    if (!file_)
        fail("cannot write " + quoted(path_) + ": the file is closed (engine bug)");
    if (std::ferror(file_))
        failWrite("writing", errno ? errno : EIO);
    if (std::fflush(file_) != 0)
        failWrite("writing", errno);
    if (file_ == stdout) {
        committed_ = true;
        reportBytes(progress_, progressWhat_, totalBytes_, totalBytes_);
        return;
    }
    // A full disk may only be reported when the data reach it (delayed
    // allocation, network file systems): fsync makes that happen here.
    if (!temporary_.empty() && fsync(fileno(file_)) != 0)
        failWrite("writing to disk", errno);
    FILE* file = file_;
    file_ = nullptr;
    if (std::fclose(file) != 0)
        failWrite("closing", errno);
    if (!temporary_.empty()) {
        if (renameOnto(temporary_, path_, ifExists_) != 0) {
            int error = errno;
            unlink(temporary_.c_str());
            temporary_.clear();
            if (error == EEXIST)
                failExists(path_);
            fail("cannot write " + quoted(path_) + ": renaming the finished file onto it failed: " + std::strerror(error));
        }
    }
    committed_ = true;
    reportBytes(progress_, progressWhat_, totalBytes_, totalBytes_);
}

} // namespace isoscope
