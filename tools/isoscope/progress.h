#pragma once
// Progress of long reads and writes on a terminal: one line on stderr,
// redrawn in place, only when stderr is a terminal and --quiet was not given
// (so logs, pipes and tests that capture stderr see none of it).
#include "core/progress.h"

namespace isoscope::cli {

// A Progress printing "isoscope: reading 'scan.nii' 12.00 MiB/64.00 MiB (18%),
// 240.00 MiB/s" (or "... 37/128 pages (28%), ..." where items are counted;
// after the first second, ", 12 s left" while unfinished) at
// each new percent, ending the line when done == total; empty (no reporting)
// when quiet or when stderr is not a terminal.
Progress terminalProgress(bool quiet);

// Ends a progress line left open by work that failed, so that the error
// message that follows starts a line of its own.
void endProgressLine();

} // namespace isoscope::cli
