#include "method_options.h"

#include <charconv>

#include "core/error.h"
#include "core/text.h"
#include "core/warm_up.h"
#include "params.h"

namespace isoscope::cli {

ExtractOptions MethodArguments::options() const
{
    ExtractOptions options;
    options.method = method;
    options.weld = !noWeld;
    options.repeat = repeat;
    options.warmup = warmup;
    options.warmupMs = warmupMs;
    options.halfedges = halfedges;
    options.colors = colors;
    if ((halfedges || colors) && method != "dual")
        fail(std::string(halfedges ? "--halfedges" : "--colors") + " is made by --method dual only, not " + method);
    if ((scanColumn || scanListWorkgroup) && method != "scan")
        fail(std::string(scanColumn ? "--scan-column" : "--scan-list-workgroup") +
             " shapes --method scan only, not " + method);
    options.scanColumnTiles = scanColumn;
    options.scanListWorkgroup = scanListWorkgroup;
    const char* cursor = block.data();
    const char* end = block.data() + block.size();
    for (int axis = 0; axis < 3; ++axis) {
        auto [next, error] = std::from_chars(cursor, end, options.blockSize[axis]);
        bool last = axis == 2;
        if (error != std::errc() || options.blockSize[axis] == 0 || (last ? next != end : next == end || *next != 'x'))
            fail("--block '" + block + "': give three positive sizes like 8x4x4");
        cursor = next + 1;
    }
    return options;
}

std::shared_ptr<MethodArguments> addMethodArguments(CLI::App* command, const std::string& defaultMethod,
                                                    uint32_t defaultRepeat, uint32_t defaultWarmup, double defaultWarmupMs)
{
    auto arguments = std::make_shared<MethodArguments>();
    arguments->method = defaultMethod;
    arguments->repeat = defaultRepeat;
    arguments->warmup = defaultWarmup;
    arguments->warmupMs = defaultWarmupMs;
    std::vector<std::string> methods = extractionMethods();
    methods.push_back("auto");
    command->add_option("--method", arguments->method,
                        "Extraction method: " + join(methods, ", ") + " (auto: the fastest the device runs, "
                        "docs/BENCHMARKS.md)")
        ->check(CLI::IsMember(methods))
        ->capture_default_str();
    command->add_flag("--no-weld", arguments->noWeld,
                      "GPU methods: keep each method's duplicate vertices (block: one copy per block face)");
    command->add_option("--block", arguments->block, "block method: voxels per block, XxYxZ")
        ->check(blockSize())
        ->capture_default_str();
    command->add_flag("--halfedges", arguments->halfedges,
                      "dual method: the halfedge structure too (extract writes it beside the mesh as MESH.halfedges)");
    command->add_flag("--colors", arguments->colors,
                      "dual method: vertex (8) and face (5) colours too, with the halfedges (in MESH.halfedges)");
    command->add_option("--scan-column", arguments->scanColumn,
                        "scan method: tiles a count workgroup walks up, 1 to 16 (default: by the slab's size)")
        ->check(wholeNumber(1, 16));
    command->add_option("--scan-list-workgroup", arguments->scanListWorkgroup,
                        "scan method: invocations of a list workgroup, a multiple of the subgroup size that "
                        "divides a tile (default: by the slab's size)")
        ->check(wholeNumber(1, 1024));
    command->add_option("--repeat", arguments->repeat, "Timed runs; timings are medians")
        ->check(wholeNumber(1, kMaxRuns))
        ->capture_default_str();
    command->add_option("--warmup", arguments->warmup, "GPU methods: untimed runs before the timed ones")
        ->check(wholeNumber(0, kMaxRuns))
        ->capture_default_str();
    command->add_option("--warmup-ms", arguments->warmupMs,
                        "GPU methods: and untimed runs for at least this many milliseconds (GPU clocks rise under load)")
        ->check(finiteNumber(0, kMaxWarmUpMs))
        ->capture_default_str();
    return arguments;
}

} // namespace isoscope::cli
