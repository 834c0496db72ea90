#include "render/quad_draw_args.h"

#include "graph/render_graph.h"

namespace isoscope {

ResourceId addQuadDrawArgsPass(RenderGraph& graph, const ComputeProgram& program, ResourceId meshCounters,
                               const std::string& name)
{
    ResourceId args = graph.createBuffer(name + " arguments", 16);
    addQuadDrawArgsPass(graph, program, meshCounters, args, name);
    return args;
}

void addQuadDrawArgsPass(RenderGraph& graph, const ComputeProgram& program, ResourceId meshCounters, ResourceId args,
                         const std::string& name)
{
    graph.addComputePass(name, program, {{meshCounters, Use::StorageRead, 0}, {args, Use::StorageWrite, 1}},
                         [&program, meshCounters, args](VkCommandBuffer cmd, const RenderGraph& g) {
                             program.bind(cmd, {g.storage(meshCounters), g.storage(args)});
                             program.dispatch(cmd, 1);
                         });
}

} // namespace isoscope
