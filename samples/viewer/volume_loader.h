#pragma once
// Loading a volume on a worker thread while the window goes on drawing the
// one shown (isoscope's threading rule: context.h, Threads). The worker
// reads and uploads the volume and makes what the viewer draws of it; the
// frame loop polls for it and hands it to the scene between frames. The
// host's queue uses hold the context's queueMutex() meanwhile.
#include <atomic>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <isoscope/isoscope.h>

namespace viewer {

// A volume and what the viewer draws of it, made on the loading thread.
struct LoadedVolume {
    std::string source;
    isoscope::api::Method method = isoscope::api::Method::Block;
    bool weld = true;
    std::optional<isoscope::api::Volume> volume;
    std::vector<uint64_t> histogram;
    std::optional<isoscope::api::Isosurface> surface;
    std::optional<isoscope::api::IsoRaycast> raycast;
    std::optional<isoscope::api::VolumeRendering> dvr;
};

// On the calling thread; throws samplehost::Failure with isoscope's message.
LoadedVolume loadVolume(isoscope::api::Context& context, const std::string& pathOrSpec, isoscope::api::Method method,
                        bool weld, uint32_t histogramBins, const isoscope::api::LoadProgress& progress = {});

class VolumeLoader {
public:
    VolumeLoader() = default;
    VolumeLoader(const VolumeLoader&) = delete;
    VolumeLoader& operator=(const VolumeLoader&) = delete;
    ~VolumeLoader(); // waits for a load in flight

    // Starts loading on a thread of its own; false while one is in flight.
    bool start(isoscope::api::Context& context, const std::string& pathOrSpec, isoscope::api::Method method, bool weld,
               uint32_t histogramBins);
    bool busy() const { return thread_.joinable() && !done_; }
    void wait(); // until a load in flight finishes

    struct Progress {
        std::string source, what, items;
        uint64_t done = 0, total = 0;
    };
    Progress progress() const;

    // Once the load finished: the volume, or the error's message in `error`. Empty while busy.
    struct Outcome {
        std::optional<LoadedVolume> loaded;
        std::string error;
    };
    std::optional<Outcome> finished();

private:
    std::thread thread_;
    std::atomic<bool> done_{false};
    mutable std::mutex mutex_; // progress_ and outcome_
    Progress progress_;
    Outcome outcome_;
};

} // namespace viewer
