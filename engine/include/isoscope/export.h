#pragma once
// ISOSCOPE_API marks what libisoscope exports; everything else in it is
// hidden. Hosts never write it; it stands before the API's classes:
//
//   class ISOSCOPE_API Volume : public detail::Handle<detail::VolumeImpl> { ... };
#if defined(_WIN32)
#define ISOSCOPE_API
#else
#define ISOSCOPE_API __attribute__((visibility("default")))
#endif
