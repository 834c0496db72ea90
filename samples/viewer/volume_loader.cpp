#include "volume_loader.h"

#include "check.h"

namespace viewer {
using samplehost::take;

LoadedVolume loadVolume(isoscope::api::Context& context, const std::string& pathOrSpec, isoscope::api::Method method,
                        bool weld, uint32_t histogramBins, const isoscope::api::LoadProgress& progress)
{
    LoadedVolume loaded{pathOrSpec, method, weld};
    loaded.volume = take(isoscope::api::Volume::load(context, pathOrSpec, progress), "loading " + pathOrSpec);
    if (progress)
        progress({"preparing the isosurface, raycast and volume rendering", 0, 0, {}});
    loaded.histogram = take(loaded.volume->histogram(histogramBins), "the histogram of " + pathOrSpec);
    loaded.surface = take(isoscope::api::Isosurface::create(context, *loaded.volume, {method, weld}), "the isosurface");
    loaded.raycast = take(isoscope::api::IsoRaycast::create(context, *loaded.volume), "the isosurface raycast");
    loaded.dvr = take(isoscope::api::VolumeRendering::create(context, *loaded.volume), "the volume rendering");
    return loaded;
}

VolumeLoader::~VolumeLoader() { wait(); }

void VolumeLoader::wait()
{
    if (thread_.joinable())
        thread_.join();
}

bool VolumeLoader::start(isoscope::api::Context& context, const std::string& pathOrSpec, isoscope::api::Method method,
                         bool weld, uint32_t histogramBins)
{
    if (thread_.joinable()) // in flight, or finished and not yet taken
        return false;
    progress_ = {pathOrSpec, "starting", {}, 0, 0};
    outcome_ = {};
    done_ = false;
    thread_ = std::thread([this, &context, pathOrSpec, method, weld, histogramBins] {
        auto report = [this](const isoscope::api::LoadStep& step) {
            std::lock_guard lock(mutex_);
            progress_.what = step.what;
            progress_.items = step.items;
            progress_.done = step.done;
            progress_.total = step.total;
        };
        Outcome outcome;
        try {
            outcome.loaded = loadVolume(context, pathOrSpec, method, weld, histogramBins, report);
        } catch (const std::exception& error) {
            outcome.error = error.what();
        }
        std::lock_guard lock(mutex_);
        outcome_ = std::move(outcome);
        done_ = true;
    });
    return true;
}

VolumeLoader::Progress VolumeLoader::progress() const
{
    std::lock_guard lock(mutex_);
    return progress_;
}

std::optional<VolumeLoader::Outcome> VolumeLoader::finished()
{
    if (!done_)
        return std::nullopt;
    wait();
    done_ = false;
    std::lock_guard lock(mutex_);
    return std::move(outcome_);
}

} // namespace viewer
