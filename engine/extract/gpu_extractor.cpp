#include "extract/gpu_extractor.h"

#include "core/context.h"
#include "core/error.h"
#include "core/text.h"
#include "extract/auto_method.h"
#include "extract/case_table_gpu.h"
#include "extract/finalize_mesh.h"
#include "extract/gpu_methods.h"
#include "graph/render_graph.h"

namespace isoscope {

GpuExtractor::GpuExtractor(Context& context, const Volume& volume, bool triangleSoup)
    : dims_(volume.dims), triangleSoup_(triangleSoup), finalize_(context, loadShader("extract/finalize_mesh")),
      caseTable_(createCaseTableBuffer(context))
{
}

void GpuExtractor::placeSlab(const SlabPlacement&)
{
    fail("this extraction method does not extract streamed slabs: use --method block or --method scan");
}

ResourceId GpuExtractor::importCaseTable(RenderGraph& graph, const std::string& prefix) const
{
    return graph.importBuffer(prefix + "case table", caseTable_.buffer);
}

void GpuExtractor::addToGraph(RenderGraph& graph, const MeshBuffers& mesh, const float& iso, const std::string& prefix)
{
    if (mesh.faceSize != faceSize())
        fail("a mesh of " + std::to_string(mesh.faceSize) + "-sided faces for a method that writes " +
             std::to_string(faceSize()) + "-sided ones (engine bug)");
    if (!resetsMeshCounters())
        addResetCountersPass(graph, mesh, prefix + "reset_counters");
    addPasses(graph, mesh, iso, prefix);
    addFinalizeMeshPass(graph, finalize_, mesh, prefix + "finalize_mesh");
}

std::array<uint64_t, 2> GpuExtractor::estimateCapacity(float) const
{
    // A closed surface through an n³ grid crosses about as many cells as a few
    // of its faces hold; 4 triangles per cell of one face layer in each
    // direction covers smooth data, and overflow handling covers the rest.
    uint64_t x = dims_[0], y = dims_[1], z = dims_[2];
    uint64_t faces = 4 * (x * y + y * z + x * z) + 4096;
    return {triangleSoup_ ? 3 * faces : faces / 2 + 4096, faces};
}

void requireVolumeBuffer(const FieldSource& field, const ExtractOptions& options, const std::string& method)
{
    if (!field.volume || !field.gpuVolume)
        fail("the " + method + " method needs a stored volume" +
             std::string(options.analyticField.empty() ? "" : " (it does not evaluate --analytic fields)"));
    if (!field.gpuVolume->buffer())
        fail("the " + method + " method reads the volume's storage buffer, which was not uploaded (engine bug)");
}

std::unique_ptr<GpuExtractor> createGpuExtractor(Context& context, const std::string& method, const FieldSource& field,
                                                 const ExtractOptions& options)
{
    const GpuMethod* entry = findGpuMethod(method);
    if (!entry)
        fail("unknown GPU extraction method '" + method + "': choose one of " + join(extractionMethods(), ", "));
    return entry->create(context, field, options);
}

PreparedExtraction prepareGpuExtraction(Context& context, const Volume& volume, const ExtractOptions& requested)
{
    ExtractOptions options = resolveAutoMethod(context.info(), volume, std::nullopt, requested);
    const GpuMethod* method = findGpuMethod(options.method);
    if (!method)
        fail("unknown GPU extraction method '" + options.method + "': choose one of " +
             join(extractionMethods(), ", "));
    PreparedExtraction prepared;
    if (options.analyticField.empty()) {
        GpuVolumeUsage usage = method->volumeUsage(volume);
        if (usage.buffer && usage.bufferOptional) {
            // The raw copy only speeds a method up: leave it out where the
            // device has no room for both forms.
            try {
                checkVolumeFitsDevice(context, volume, usage);
            } catch (const Error&) {
                usage.buffer = false;
            }
        }
        prepared.volume = std::make_unique<GpuVolume>(context, volume, usage);
    }
    prepared.extractor = method->create(context, FieldSource{&volume, prepared.volume.get()}, options);
    return prepared;
}

} // namespace isoscope
