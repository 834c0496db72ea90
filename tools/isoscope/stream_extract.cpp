#include "stream_extract.h"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>
#include <memory>
#include <optional>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "core/context.h"
#include "core/error.h"
#include "extract/stream/copy_bandwidth.h"
#include "extract/stream/source_bandwidth.h"
#include "extract/stream/streamed_extraction.h"
#include "io/mesh_io.h"
#include "io/mesh_stream.h"
#include "mesh/world_transform.h"
#include "output_options.h"
#include "progress.h"
#include "volume/volume_source.h"

namespace isoscope::cli {

namespace {

uint64_t peakHostBytes()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return uint64_t(usage.ru_maxrss) * 1024; // Linux: KiB
}

nlohmann::json copyJson(const CopyBandwidth& copy)
{
    return {{"bytes", copy.bytes},
            {"copies", copy.copies},
            {"queues", copy.queues},
            {"queue", copy.role == QueueRole::Main ? "main" : "transfer"},
            {"gpu_ms", copy.gpuMs},
            {"gb_per_s", copy.bytesPerSecond() * 1e-9}};
}

// How much of slab k's extraction ran while slab k+1 uploaded (GPU
// timestamps of two queues, one device clock), as a fraction of the
// extraction's span; and the same spans relative to the first upload.
double overlapFraction(const SlabStats& slab, const SlabStats& next)
{
    double span = slab.extractEndMs - slab.extractStartMs;
    if (span <= 0 || next.uploadEndMs <= 0)
        return 0.0;
    double shared = std::min(slab.extractEndMs, next.uploadEndMs) - std::max(slab.extractStartMs, next.uploadStartMs);
    return std::max(0.0, shared) / span;
}

nlohmann::json startupJson(const StreamReport::Startup& startup)
{
    return {{"constructed", startup.constructed},
            {"staging_pages", startup.stagingPages},
            {"first_piece_ready", startup.firstPieceReady},
            {"slot0_ready", startup.slot0Ready},
            {"images", startup.images},
            {"extractors", startup.extractors},
            {"first_read", startup.firstRead},
            {"upload_graph", startup.uploadGraph}};
}

nlohmann::json sourceJson(const SourceBandwidth& source)
{
    return {{"bytes", source.bytes},
            {"pieces", source.pieces},
            {"piece_bytes", source.pieceBytes},
            {"staging_buffers", source.buffers},
            {"staging", source.stagingImported ? "imported host pages" : "pinned allocation"},
            {"wall_ms", source.wallMs},
            {"read_ms", source.readMs},
            {"staging_wait_ms", source.stagingWaitMs},
            {"upload_gpu_ms", source.uploadGpuMs},
            {"gb_per_s", source.bytesPerSecond() * 1e-9}};
}

nlohmann::json statsJson(const StreamReport& report, const Volume& grid, float iso,
                         const std::vector<CopyBandwidth>& copies, const std::optional<SourceBandwidth>& source,
                         double contextMs, double measureCopyMs, double outputMs)
{
    double seconds = report.wallMs * 1e-3;
    double uploadMs = 0, overlapCopyMs = 0, extractMs = 0, readMs = 0, waitMs = 0, downloadMs = 0;
    double setupMs = 0, teardownMs = 0, gpuWaitMs = 0, readBackMs = 0, weldMs = 0, weldSinkMs = 0, weldWaitMs = 0;
    nlohmann::json slabs = nlohmann::json::array();
    double origin = report.slabs.empty() ? 0.0 : report.slabs.front().uploadStartMs;
    double stagingWaitMs = 0, overlapSum = 0;
    std::vector<double> overlaps;
    for (size_t i = 0; i < report.slabs.size(); ++i) {
        const SlabStats& s = report.slabs[i];
        double overlap = i + 1 < report.slabs.size() ? overlapFraction(s, report.slabs[i + 1]) : 0.0;
        if (i + 1 < report.slabs.size()) {
            overlaps.push_back(overlap);
            overlapSum += overlap;
        }
        stagingWaitMs += s.stagingWaitMs;
        uploadMs += s.uploadMs;
        overlapCopyMs += s.overlapCopyMs;
        extractMs += s.extractMs;
        readMs += s.readMs;
        waitMs += s.waitMs;
        downloadMs += s.downloadMs;
        setupMs += s.setupMs;
        teardownMs += s.teardownMs;
        gpuWaitMs += s.gpuWaitMs;
        readBackMs += s.readBackMs;
        weldMs += s.weldMs;
        weldSinkMs += s.weldSinkMs;
        weldWaitMs += s.weldWaitMs;
        slabs.push_back({{"first_plane", s.firstPlane}, {"cell_layers", s.cellLayers}, {"slab_wall_ms", s.wallMs}, {"read_ms", s.readMs},
                         {"wait_ms", s.waitMs}, {"upload_gpu_ms", s.uploadMs}, {"extract_gpu_ms", s.extractMs},
                         {"graph_setup_ms", s.setupMs}, {"gpu_wait_ms", s.gpuWaitMs}, {"graph_teardown_ms", s.teardownMs}, {"download_ms", s.downloadMs},
                         {"read_back_gpu_ms", s.readBackMs}, {"weld_ms", s.weldMs}, {"weld_sink_ms", s.weldSinkMs}, {"weld_wait_ms", s.weldWaitMs},
                         {"vertices", s.vertices}, {"triangles", s.triangles},
                         {"staging_wait_ms", s.stagingWaitMs},
                         {"upload_span_ms", {s.uploadStartMs - origin, s.uploadEndMs - origin}},
                         {"extract_span_ms", {s.extractStartMs - origin, s.extractEndMs - origin}},
                         {"extract_overlapped_by_next_upload", overlap}});
    }
    std::sort(overlaps.begin(), overlaps.end());
    nlohmann::json json = {
        {"method", report.method},
        {"streamed", true},
        {"device", report.device},
        {"subgroup_size", report.subgroupSize},
        {"dims", grid.dims},
        {"scalar_type", std::string(scalarName(grid.type))},
        {"iso", iso},
        {"vertices", report.vertexCount},
        {"triangles", report.faceCount},
        {"device_budget_bytes", report.deviceBudget},
        {"slab_cell_layers", report.plannedCellLayers},
        {"slab_count", report.slabs.size()},
        {"slabs_split", report.slabsSplit},
        {"overflow_retries", report.overflowRetries},
        {"volume_bytes", report.volumeBytes},
        {"bytes_read", report.bytesRead},
        {"bytes_uploaded", report.bytesUploaded},
        {"overlap_bytes_copied", report.overlapBytesCopied},
        {"staging_bytes", report.stagingBytes},
        {"staging", report.stagingImported ? "imported host pages" : "pinned allocation"},
        {"read_back", report.readBackImported   ? "imported host pages"
                      : report.readBackOnDevice ? "device memory the host maps"
                                                : "the driver's host memory"},
        {"read_back_slots", report.readBackSlots},
        {"staging_ms", report.stagingMs},
        {"staging_pieces", report.stagingPieces},
        {"clock_starts", "at the streamed extraction's call: after the device context and the copy measurement"},
        {"context_ms", contextMs},
        {"measure_copy_ms", measureCopyMs},
        {"wall_ms", report.wallMs},
        {"first_upload_submitted_ms", report.firstUploadMs},
        {"startup_ms_at", startupJson(report.startup)},
        {"end_to_end_gb_per_s", seconds > 0 ? double(report.volumeBytes) / seconds * 1e-9 : 0.0},
        // The same with the device context's creation, which the command waits for too (an API caller makes it once).
        {"end_to_end_with_context_gb_per_s", double(report.volumeBytes) / (seconds + contextMs * 1e-3) * 1e-9},
        // After wall_ms, the output file finished: a PLY's faces appended and the file synced to disk (an STL
        // synced), other formats written whole. The run is done for a user only then.
        {"output_ms", outputMs},
        {"end_to_end_with_output_gb_per_s", double(report.volumeBytes) / (seconds + outputMs * 1e-3) * 1e-9},
        {"peak_device_bytes", report.peakDeviceBytes},
        {"peak_host_bytes", peakHostBytes()},
        {"read_ms", readMs},
        {"read_wait_ms", waitMs},
        {"upload_gpu_ms", uploadMs},
        {"overlap_copy_gpu_ms", overlapCopyMs},
        {"extract_gpu_ms", extractMs},
        {"download_ms", downloadMs},
        {"graph_setup_ms", setupMs},
        {"graph_teardown_ms", teardownMs},
        {"gpu_wait_ms", gpuWaitMs},
        {"read_back_gpu_ms", readBackMs},
        {"weld_ms", weldMs},
        {"weld_sink_ms", weldSinkMs},
        {"weld_wait_ms", weldWaitMs},
        {"staging_wait_ms", stagingWaitMs},
        {"transfer_queue", report.transferQueue ? "dedicated" : "the main queue"},
        {"extract_overlapped_by_next_upload_mean", overlaps.empty() ? 0.0 : overlapSum / double(overlaps.size())},
        {"extract_overlapped_by_next_upload_median", overlaps.empty() ? 0.0 : overlaps[overlaps.size() / 2]},
        {"slabs", slabs},
    };
    if (!copies.empty()) {
        // The ceiling: the fastest of the measured ways to copy (the main queue's as before, the transfer queue's, two).
        double rate = 0;
        nlohmann::json all = nlohmann::json::array();
        for (const CopyBandwidth& copy : copies) {
            rate = std::max(rate, copy.bytesPerSecond());
            all.push_back(copyJson(copy));
        }
        json["copy_ceiling"] = copyJson(copies.front());
        json["copy_ceilings"] = all;
        json["copy_ceiling_gb_per_s"] = rate * 1e-9;
        json["fraction_of_copy_ceiling"] =
            rate > 0 && seconds > 0 ? nlohmann::json(double(report.volumeBytes) / seconds / rate) : nlohmann::json(nullptr);
        if (source && rate > 0)
            json["source_fraction_of_copy_ceiling"] = source->bytesPerSecond() / rate;
    }
    if (source) {
        // The source alone, read and uploaded with nothing extracted: no extraction of it can be faster.
        double rate = source->bytesPerSecond();
        json["source_ceiling"] = sourceJson(*source);
        json["source_ceiling_gb_per_s"] = rate * 1e-9;
        json["fraction_of_source_ceiling"] =
            rate > 0 && seconds > 0 ? nlohmann::json(double(report.volumeBytes) / seconds / rate) : nlohmann::json(nullptr);
    }
    return json;
}

} // namespace

std::optional<int> runStreamedExtract(const StreamRequest& request)
{
    std::filesystem::path volumePath(request.volume);
    std::unique_ptr<VolumeSource> source;
    if (request.forced) {
        source = openVolumeSource(request.volume, request.raw, request.syntheticType);
    } else {
        try {
            source = openVolumeSource(request.volume, request.raw, request.syntheticType);
        } catch (const Error&) {
            return std::nullopt; // not a format read in place: extracted in core
        }
    }
    const Volume& grid = source->grid();
    auto contextStart = std::chrono::steady_clock::now();
    Context context;
    double contextMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - contextStart).count();
    uint64_t budget = request.deviceBudget ? request.deviceBudget : context.allocator().deviceBudgetBytes();
    if (!request.forced) {
        if (!needsStreaming(context, grid, budget))
            return std::nullopt;
        if (!request.quiet)
            std::fprintf(stderr, "isoscope: %s needs more than the device budget of %s in core: extracting it in "
                                 "slabs (--stream)\n",
                         grid.source.c_str(), formatBytes(budget).c_str());
    }

    std::vector<CopyBandwidth> copies;
    auto measureStart = std::chrono::steady_clock::now();
    if (request.measureCopy) {
        uint64_t bytes = std::min<uint64_t>(uint64_t(256) << 20, budget / 4);
        copies.push_back(measureUploadBandwidth(context, bytes, 8));
        if (context.hasDedicatedTransferQueue()) {
            copies.push_back(measureUploadBandwidth(context, bytes, 8, QueueRole::Transfer, 1));
            if (context.transferQueueCount() >= 2)
                copies.push_back(measureUploadBandwidth(context, bytes, 8, QueueRole::Transfer, 2));
        }
    }
    std::optional<SourceBandwidth> sourceCeiling;
    if (request.measureSource) // four buffers of a slab staging's piece size, or less on a small budget
        sourceCeiling = measureSourceUpload(context, *source, std::min<uint64_t>(uint64_t(128) << 20, budget / 16));

    double measureCopyMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - measureStart).count();

    StreamOptions stream;
    stream.deviceBudget = budget;
    stream.maxSlabLayers = request.slabLayers;
    stream.progress = terminalProgress(request.quiet);

    // Binary PLY and STL are written as the slabs come; other formats from the whole mesh.
    std::unique_ptr<StreamedMeshWriter> writer;
    MeshCollector collector;
    MeshSink* sink = &collector;
    if (!request.output.empty() && streamsMeshFormat(request.output)) {
        MeshPlacement placement = request.indexSpace ? MeshPlacement::IndexSpace : MeshPlacement::World;
        writer = openStreamedMeshWriter(request.output, grid, placement, ifExists(request.force));
        sink = writer.get();
    }
    StreamReport report = extractStreamed(context, *source, request.iso, request.method, stream, *sink);
    auto outputStart = std::chrono::steady_clock::now();
    if (writer) {
        writer->commit(terminalProgress(request.quiet));
    } else if (!request.output.empty()) {
        Mesh& mesh = collector.mesh();
        if (request.indexSpace)
            toIndexSpace(mesh, grid);
        else
            placeInWorld(mesh, grid);
        writeMesh(mesh, request.output, {ifExists(request.force), terminalProgress(request.quiet)});
    }
    double outputMs = request.output.empty()
                          ? 0.0
                          : std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - outputStart).count();
    nlohmann::json stats = statsJson(report, grid, request.iso, copies, sourceCeiling, contextMs, measureCopyMs, outputMs);
    if (!request.stats.empty())
        writeJson(stats, request.stats, request.force);
    if (request.stats != "-")
        std::printf("%s (streamed, %zu slabs): %llu vertices, %llu triangles, %.3f s, %.2f GB/s end to end%s\n",
                    report.method.c_str(), report.slabs.size(), (unsigned long long)report.vertexCount,
                    (unsigned long long)report.faceCount, report.wallMs * 1e-3,
                    report.wallMs > 0 ? double(report.volumeBytes) / (report.wallMs * 1e-3) * 1e-9 : 0.0,
                    request.output.empty() ? ""
                                           : (", then " + std::to_string(int64_t(outputMs)) + " ms finishing " +
                                              std::filesystem::path(request.output).filename().string())
                                                 .c_str());
    return 0;
}

} // namespace isoscope::cli
