#include "extract/extract.h"

#include <algorithm>
#include <chrono>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/text.h"
#include "core/context.h"
#include "extract/cpu/marching_cubes.h"
#include "extract/extraction_run.h"
#include "extract/auto_method.h"
#include "extract/gpu_methods.h"

namespace isoscope {

std::vector<std::string> extractionMethods()
{
    std::vector<std::string> methods{"cpu"};
    for (const GpuMethod& method : gpuMethods())
        methods.push_back(method.name);
    return methods;
}

double median(std::vector<double> values)
{
    if (values.empty())
        return 0.0;
    size_t middle = values.size() / 2;
    std::nth_element(values.begin(), values.begin() + middle, values.end());
    double upper = values[middle];
    if (values.size() % 2)
        return upper;
    return 0.5 * (upper + *std::max_element(values.begin(), values.begin() + middle));
}

namespace {

void checkOptions(const ExtractOptions& options)
{
    std::vector<std::string> methods = extractionMethods();
    if (options.method != "auto" && std::find(methods.begin(), methods.end(), options.method) == methods.end()) {
        fail("unknown extraction method '" + options.method + "': choose one of " + join(methods, ", "));
    }
    if (options.repeat == 0)
        fail("--repeat must be at least 1");
}

ExtractionReport extractOnCpu(const Volume& volume, float iso, const ExtractOptions& options)
{
    ExtractionReport report;
    report.method = options.method;
    report.device = "cpu";
    report.repeat = options.repeat;
    std::vector<double> times;
    for (uint32_t run = 0; run < options.repeat; ++run) {
        auto start = std::chrono::steady_clock::now();
        report.mesh = extractMarchingCubes(volume, iso);
        times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
    report.cpuMs = median(times);
    report.vertexCount = report.mesh.positions.size();
    report.faceCount = report.mesh.faceCount();
    return report;
}

} // namespace

ExtractionReport extractIsosurface(const Volume& volume, float iso, const ExtractOptions& options)
{
    checkOptions(options);
    if (options.method == "cpu")
        return extractOnCpu(volume, iso, options);
    Context context;
    return runGpuExtraction(context, volume, iso, resolveAutoMethod(context.info(), volume, iso, options));
}

ExtractionReport extractIsosurface(Context& context, const Volume& volume, float iso, const ExtractOptions& options)
{
    checkOptions(options);
    if (options.method == "cpu")
        return extractOnCpu(volume, iso, options);
    return runGpuExtraction(context, volume, iso, resolveAutoMethod(context.info(), volume, iso, options));
}

nlohmann::json toJson(const ExtractionReport& report, const Volume& volume, float iso)
{
    nlohmann::json passes = nlohmann::json::object();
    for (const auto& [name, ms] : report.gpuMsPerPass)
        passes[name] = ms;
    nlohmann::json json = {
        {"method", report.method},
        {"method_choice", report.methodChoice.empty() ? nlohmann::json(nullptr) : nlohmann::json(report.methodChoice)},
        {"device", report.device},
        {"subgroup_size", report.subgroupSize ? nlohmann::json(*report.subgroupSize) : nlohmann::json(nullptr)},
        {"dims", volume.dims},
        {"scalar_type", std::string(scalarName(volume.type))},
        {"iso", iso},
        {"vertices", report.vertexCount},
        {report.mesh.faceSize == 4 ? "quads" : "triangles", report.faceCount},
        {"gpu_ms", passes},
        {"total_gpu_ms", report.totalGpuMs ? nlohmann::json(*report.totalGpuMs) : nlohmann::json(nullptr)},
        {"cpu_ms", report.cpuMs},
        {"repeat", report.repeat},
        {"aux_device_bytes", report.auxDeviceBytes},
        {"transient_device_bytes", report.transientDeviceBytes},
        {"table_device_bytes", report.tableDeviceBytes},
        {"peak_device_bytes", report.peakDeviceBytes},
    };
    if (!report.workCounts.empty()) {
        nlohmann::json work = nlohmann::json::object();
        for (const auto& [name, count] : report.workCounts)
            work[name] = count;
        json["work"] = work;
    }
    return json;
}

} // namespace isoscope
