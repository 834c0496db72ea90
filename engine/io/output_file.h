#pragma once
// Files the engine writes, all or nothing: every write, the flush and the
// close are checked, a failure throws Error naming the file, and a file that
// was not finished is removed, so no partial output is ever left behind.
//
//     OutputFile out(path, IfExists::Refuse);
//     out.write(header);
//     out.write(body.data(), body.size());
//     out.commit(); // only now does `path` appear (or replace the old file)
//
// A regular file is written as a temporary beside it and renamed onto it by
// commit(): until then the old file, if any, is untouched, and an error or an
// exception (the destructor) removes the temporary. A target that exists and
// is not a regular file (/dev/stdout, /dev/null, /dev/full, a pipe) is
// written in place. "-" is standard output.
#include <cstddef>
#include <cstdio>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>

#include "core/progress.h"

namespace isoscope {

// What to do when the target is an existing regular file.
enum class IfExists {
    Replace, // the API's default: the caller named the file
    Refuse,  // the CLI's default: replace no file the command did not create (--force: Replace)
};

// How a writer writes: whether it may replace a file, and whom it tells how
// far it is. Converts from IfExists, for calls that need no progress.
struct WriteOptions {
    IfExists ifExists = IfExists::Replace;
    Progress progress;
    WriteOptions(IfExists ifExists = IfExists::Replace, Progress progress = {})
        : ifExists(ifExists), progress(std::move(progress))
    {
    }
};

// Fails, naming path, unless a file could be written there: a name (not ""),
// not a folder, and not an existing regular file when ifExists is Refuse.
// For checking outputs before long work; OutputFile checks again when it opens.
void checkOutputPath(const std::filesystem::path& path, IfExists ifExists);

class OutputFile {
public:
    OutputFile(std::filesystem::path path, IfExists ifExists);
    ~OutputFile(); // removes the temporary unless committed
    OutputFile(const OutputFile&) = delete;
    OutputFile& operator=(const OutputFile&) = delete;

    // From now on reports "writing '<file name>'" to progress: the bytes
    // written of totalBytes (what the caller is about to write), in steps of
    // kProgressStepBytes, and the end once commit() has succeeded.
    void reportProgress(Progress progress, uint64_t totalBytes);

    void write(const void* data, size_t bytes);
    void write(std::string_view text) { write(text.data(), text.size()); }
    // Appends the whole of `source` (a regular file, read from its start):
    // copied by the kernel (copy_file_range; a reflink where the file system
    // shares blocks) where it can, else read and written. `sourceName` names
    // it in errors.
    void append(FILE* source, const std::string& sourceName);
    // For formatted output (fprintf); its errors are found by commit().
    FILE* stream() { return file_; }
    // Flushes, syncs and closes the file, and renames the temporary onto the
    // target; throws Error naming the target if any step fails.
    void commit();

private:
    void countWritten(uint64_t bytes); // and reports progress, short of the end
    [[noreturn]] void failWrite(const std::string& what, int error);

    std::filesystem::path path_;
    std::filesystem::path temporary_; // empty when written in place
    IfExists ifExists_;
    FILE* file_ = nullptr;
    bool committed_ = false;
    Progress progress_;
    std::string progressWhat_;
    uint64_t written_ = 0, totalBytes_ = 0; // since reportProgress
};

} // namespace isoscope
