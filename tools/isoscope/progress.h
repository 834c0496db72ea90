#pragma once
// Progress of long reads on a terminal: one line on stderr, redrawn in place,
// only when stderr is a terminal and --quiet was not given (so logs, pipes
// and tests that capture stderr see none of it).
#include "volume/readers.h"

namespace isoscope::cli {

// A RawOptions::Progress printing "isoscope: reading DICOM slices 37/128 (28%)"
// at each new percent, ending the line when done == total; empty (no
// reporting) when quiet or when stderr is not a terminal.
RawOptions::Progress terminalProgress(bool quiet);

} // namespace isoscope::cli
