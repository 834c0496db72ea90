// How fast a streamed volume source fills a slab's staging on the host (no
// GPU): `isoscope_bench_sources SOURCE [TYPE] [PLANES] [REPEAT]` reads
// PLANES z-planes (default 32) at REPEAT places spread over the volume
// (default 7) into one host buffer and prints JSON with the median. SOURCE is
// a synthetic spec (TYPE float32 or uint8, generated) or a .raw/.nrrd file
// (read in place; TYPE ignored). The source spreads its work over every core
// the process may use: under `taskset -c 0` the figure is one core's.
// docs/BENCHMARKS.md ("Streamed extraction: the host's sources per core").
#include <sched.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "core/error.h"
#include "volume/synthetic.h"
#include "volume/volume_source.h"

using namespace isoscope;

int main(int argc, char** argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s SOURCE [float32|uint8] [PLANES] [REPEAT]\n", argv[0]);
        return 2;
    }
    try {
        std::string spec = argv[1];
        ScalarType type = argc > 2 && std::string(argv[2]) == "uint8" ? ScalarType::UInt8 : ScalarType::Float32;
        uint32_t planes = argc > 3 ? uint32_t(std::stoul(argv[3])) : 32;
        uint32_t repeat = argc > 4 ? uint32_t(std::stoul(argv[4])) : 7;
        std::unique_ptr<VolumeSource> source = openVolumeSource(spec, {}, type);
        const Volume& grid = source->grid();
        planes = std::min(planes, grid.dims[2]);
        std::vector<std::byte> staging(size_t(source->planeBytes() * planes));
        std::memset(staging.data(), 1, staging.size()); // every page touched before the clock starts
        std::vector<double> seconds;
        for (uint32_t r = 0; r < repeat; ++r) {
            uint32_t first = uint32_t(uint64_t(grid.dims[2] - planes) * r / std::max(1u, repeat - 1));
            auto start = std::chrono::steady_clock::now();
            source->readPlanes(first, planes, staging.data());
            seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        }
        std::sort(seconds.begin(), seconds.end());
        double median = seconds[seconds.size() / 2];
        double bytes = double(source->planeBytes()) * planes;
        cpu_set_t set;
        int cores = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 0;
        std::printf("{\"source\": \"%s\", \"type\": \"%s\", \"planes\": %u, \"bytes\": %.0f, \"cores\": %d, "
                    "\"median_s\": %.6f, \"best_s\": %.6f, \"gb_per_s\": %.3f, \"gb_per_s_per_core\": %.3f, "
                    "\"samples_per_s_per_core\": %.4g}\n",
                    spec.c_str(), std::string(scalarName(grid.type)).c_str(), planes, bytes, cores, median,
                    seconds.front(), bytes / median * 1e-9, bytes / median * 1e-9 / std::max(cores, 1),
                    bytes / scalarSize(grid.type) / median / std::max(cores, 1));
    } catch (const Error& error) {
        std::fprintf(stderr, "isoscope_bench_sources: %s\n", error.what());
        return 1;
    }
    return 0;
}
