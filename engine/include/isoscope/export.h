#pragma once
// ISOSCOPE_API marks what libisoscope exports; everything else in it is hidden.
#if defined(_WIN32)
#define ISOSCOPE_API
#else
#define ISOSCOPE_API __attribute__((visibility("default")))
#endif
