// The render graph compiler on the CPU: for declared passes and uses, the
// exact barriers, layouts, pass order, culling and transient aliasing.
#include <catch2/catch.hpp>

#include "core/error.h"
#include "graph/compile_graph.h"

using namespace isoscope;

namespace {

constexpr VkPipelineStageFlags2 kCompute = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;
constexpr VkAccessFlags2 kStorageRead = VK_ACCESS_2_SHADER_STORAGE_READ_BIT;
constexpr VkAccessFlags2 kStorageWrite = VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT;

ResourceDesc importedBuffer(const char* name) { return {name, false, true}; }
ResourceDesc transientBuffer(const char* name, VkDeviceSize size)
{
    ResourceDesc desc{name};
    desc.size = size;
    return desc;
}
ResourceDesc transientImage(const char* name, VkFormat format = VK_FORMAT_R8G8B8A8_UNORM)
{
    ResourceDesc desc{name, true};
    desc.extent = {64, 64};
    desc.format = format;
    return desc;
}

Barrier bufferBarrier(ResourceId id, VkPipelineStageFlags2 srcStage, VkAccessFlags2 srcAccess,
                      VkPipelineStageFlags2 dstStage, VkAccessFlags2 dstAccess)
{
    return {id, false, srcStage, srcAccess, dstStage, dstAccess};
}

} // namespace

TEST_CASE("read after write: one barrier from the writer's shader write to the reader's shader read")
{
    GraphDesc desc{{importedBuffer("data"), importedBuffer("out")},
                   {{"write", PassKind::Compute, {{0, Use::StorageWrite}}},
                    {"read", PassKind::Compute, {{0, Use::StorageRead}, {1, Use::StorageWrite}}}}};
    CompiledGraph graph = compileGraph(desc);
    REQUIRE(graph.passes.size() == 2);
    CHECK(graph.passes[0].barriers.empty()); // the host left nothing pending
    REQUIRE(graph.passes[1].barriers.size() == 1);
    CHECK(graph.passes[1].barriers[0] == bufferBarrier(0, kCompute, kStorageWrite, kCompute, kStorageRead));
}

TEST_CASE("read after read needs no barrier, but a reader in a new stage gets its own")
{
    GraphDesc desc{{importedBuffer("vertices"), transientImage("color"), importedBuffer("out")},
                   {{"write", PassKind::Compute, {{0, Use::StorageWrite}}},
                    {"read 1", PassKind::Compute, {{0, Use::StorageRead}, {2, Use::StorageWrite}}},
                    {"read 2", PassKind::Compute, {{0, Use::StorageRead}, {2, Use::StorageWrite}}},
                    {"draw", PassKind::Raster, {{0, Use::VertexBuffer}, {1, Use::ColorAttachment}}, true}}};
    CompiledGraph graph = compileGraph(desc);
    REQUIRE(graph.passes.size() == 4);
    auto barriersOn = [&](size_t pass, ResourceId id) {
        std::vector<Barrier> result;
        for (const Barrier& b : graph.passes[pass].barriers)
            if (b.resource == id)
                result.push_back(b);
        return result;
    };
    CHECK(barriersOn(1, 0).size() == 1);
    CHECK(barriersOn(2, 0).empty());
    REQUIRE(barriersOn(3, 0).size() == 1);
    CHECK(barriersOn(3, 0)[0] == bufferBarrier(0, kCompute, kStorageWrite, VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT,
                                               VK_ACCESS_2_VERTEX_ATTRIBUTE_READ_BIT));
}

TEST_CASE("write after read is an execution dependency only: reader stages, no source access")
{
    GraphDesc desc{{importedBuffer("data"), importedBuffer("out")},
                   {{"read", PassKind::Compute, {{0, Use::StorageRead}, {1, Use::StorageWrite}}},
                    {"write", PassKind::Compute, {{0, Use::StorageWrite}}}}};
    CompiledGraph graph = compileGraph(desc);
    CHECK(graph.passes[0].barriers.empty());
    REQUIRE(graph.passes[1].barriers.size() == 1);
    CHECK(graph.passes[1].barriers[0] ==
          bufferBarrier(0, kCompute, VK_ACCESS_2_NONE, kCompute, kStorageRead | kStorageWrite));
}

TEST_CASE("write after write orders the second write after the first one's writes")
{
    GraphDesc desc{{importedBuffer("data")},
                   {{"clear", PassKind::Transfer, {{0, Use::TransferDst}}},
                    {"write", PassKind::Compute, {{0, Use::StorageWrite}}}}};
    CompiledGraph graph = compileGraph(desc);
    CHECK(graph.passes[0].barriers.empty());
    REQUIRE(graph.passes[1].barriers.size() == 1);
    CHECK(graph.passes[1].barriers[0] == bufferBarrier(0, VK_PIPELINE_STAGE_2_TRANSFER_BIT,
                                                       VK_ACCESS_2_TRANSFER_WRITE_BIT, kCompute,
                                                       kStorageRead | kStorageWrite));
}

TEST_CASE("indirect arguments written by compute are made visible to the draw-indirect stage")
{
    // An extractor writes the mesh and its counters; the draw reads the
    // counters as indirect arguments and the vertices as vertex and storage
    // data: uses of one resource in one pass merge into one barrier.
    GraphDesc desc{{importedBuffer("vertices"), importedBuffer("indices"), importedBuffer("counters"),
                    transientImage("color")},
                   {{"extract", PassKind::Compute,
                     {{0, Use::StorageWrite}, {1, Use::StorageWrite}, {2, Use::StorageWrite}}},
                    {"draw", PassKind::Raster,
                     {{2, Use::IndirectArgs},
                      {1, Use::IndexBuffer},
                      {0, Use::VertexBuffer},
                      {0, Use::StorageRead},
                      {3, Use::ColorAttachment}},
                     true}}};
    CompiledGraph graph = compileGraph(desc);
    const std::vector<Barrier>& barriers = graph.passes[1].barriers;
    REQUIRE(barriers.size() == 4);
    CHECK(barriers[0] == bufferBarrier(2, kCompute, kStorageWrite, VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT,
                                       VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT));
    CHECK(barriers[1] == bufferBarrier(1, kCompute, kStorageWrite, VK_PIPELINE_STAGE_2_INDEX_INPUT_BIT,
                                       VK_ACCESS_2_INDEX_READ_BIT));
    CHECK(barriers[2] == bufferBarrier(0, kCompute, kStorageWrite,
                                       VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT |
                                           VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT |
                                           VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
                                       VK_ACCESS_2_VERTEX_ATTRIBUTE_READ_BIT | kStorageRead));
    CHECK(barriers[3].image);
}

TEST_CASE("image layouts follow the uses: undefined to attachment, attachment to sampled, then the host's final layout")
{
    ResourceDesc color = transientImage("color");
    ResourceDesc depth = transientImage("depth", VK_FORMAT_D32_SFLOAT);
    ResourceDesc target{"target", true, true};
    target.hasFinalState = true;
    target.finalState = {VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_READ_BIT,
                         VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL};
    GraphDesc desc{{color, depth, target},
                   {{"draw", PassKind::Raster, {{0, Use::ColorAttachment}, {1, Use::DepthAttachment}}},
                    {"composite", PassKind::Compute, {{0, Use::Sampled}, {2, Use::StorageImageWrite}}}}};
    CompiledGraph graph = compileGraph(desc);
    REQUIRE(graph.passes.size() == 2);

    const VkPipelineStageFlags2 colorStage = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT;
    const VkAccessFlags2 colorAccess = VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT;
    const VkPipelineStageFlags2 depthStage =
        VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT;
    const VkAccessFlags2 depthAccess =
        VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT | VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
    REQUIRE(graph.passes[0].barriers.size() == 2);
    CHECK(graph.passes[0].barriers[0] == Barrier{0, true, VK_PIPELINE_STAGE_2_NONE, VK_ACCESS_2_NONE, colorStage,
                                                 colorAccess, VK_IMAGE_LAYOUT_UNDEFINED,
                                                 VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL});
    CHECK(graph.passes[0].barriers[1] == Barrier{1, true, VK_PIPELINE_STAGE_2_NONE, VK_ACCESS_2_NONE, depthStage,
                                                 depthAccess, VK_IMAGE_LAYOUT_UNDEFINED,
                                                 VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL});

    REQUIRE(graph.passes[1].barriers.size() == 2);
    CHECK(graph.passes[1].barriers[0] ==
          Barrier{0, true, colorStage, VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT, kCompute,
                  VK_ACCESS_2_SHADER_SAMPLED_READ_BIT, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                  VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL});
    CHECK(graph.passes[1].barriers[1] == Barrier{2, true, VK_PIPELINE_STAGE_2_NONE, VK_ACCESS_2_NONE, kCompute,
                                                 kStorageRead | kStorageWrite, VK_IMAGE_LAYOUT_UNDEFINED,
                                                 VK_IMAGE_LAYOUT_GENERAL});

    REQUIRE(graph.finalBarriers.size() == 1);
    CHECK(graph.finalBarriers[0] == Barrier{2, true, kCompute, kStorageWrite, VK_PIPELINE_STAGE_2_TRANSFER_BIT,
                                            VK_ACCESS_2_TRANSFER_READ_BIT, VK_IMAGE_LAYOUT_GENERAL,
                                            VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL});
}

TEST_CASE("a second sampled read of an image in the same layout needs no barrier")
{
    ResourceDesc volume{"volume", true, true};
    volume.initialState = {VK_PIPELINE_STAGE_2_NONE, VK_ACCESS_2_NONE, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
    GraphDesc desc{{volume, importedBuffer("a"), importedBuffer("b")},
                   {{"classify", PassKind::Compute, {{0, Use::Sampled}, {1, Use::StorageWrite}}},
                    {"generate", PassKind::Compute, {{0, Use::Sampled}, {2, Use::StorageWrite}}}}};
    CompiledGraph graph = compileGraph(desc);
    CHECK(graph.passes[0].barriers.empty());
    CHECK(graph.passes[1].barriers.empty());
}

TEST_CASE("passes run in declaration order and a pass whose output nobody uses is culled")
{
    GraphDesc desc{{transientBuffer("scratch", 256), transientBuffer("unused", 256), importedBuffer("out")},
                   {{"produce", PassKind::Compute, {{0, Use::StorageWrite}}},
                    {"dead end", PassKind::Compute, {{0, Use::StorageRead}, {1, Use::StorageWrite}}},
                    {"consume", PassKind::Compute, {{0, Use::StorageRead}, {2, Use::StorageWrite}}},
                    {"host read-back", PassKind::Transfer, {{2, Use::TransferSrc}}, true}}};
    CompiledGraph graph = compileGraph(desc);
    REQUIRE(graph.passes.size() == 3);
    CHECK(graph.passes[0].pass == 0);
    CHECK(graph.passes[1].pass == 2);
    CHECK(graph.passes[2].pass == 3);
    CHECK(graph.culled == std::vector<uint32_t>{1});
    // The culled pass's transient is never created.
    REQUIRE(graph.transients.size() == 1);
    CHECK(graph.transients[0].resource == 0);
    CHECK(graph.transients[0].bufferUsage == VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
}

TEST_CASE("transients whose lifetimes do not overlap share memory, after a barrier from the previous occupant")
{
    // a: passes 0-1, b: passes 1-2 (overlaps a), c: passes 2-3 (after a).
    GraphDesc desc{{transientBuffer("a", 1000), transientBuffer("b", 500), transientBuffer("c", 4000),
                    transientImage("image"), importedBuffer("out")},
                   {{"0", PassKind::Compute, {{0, Use::StorageWrite}}},
                    {"1", PassKind::Compute, {{0, Use::StorageRead}, {1, Use::StorageWrite}}},
                    {"2", PassKind::Compute, {{1, Use::StorageRead}, {2, Use::StorageWrite}, {3, Use::StorageImageWrite}}},
                    {"3", PassKind::Compute, {{2, Use::StorageRead}, {3, Use::StorageImageRead}, {4, Use::StorageWrite}}}}};
    CompiledGraph graph = compileGraph(desc);
    REQUIRE(graph.transients.size() == 4);
    auto slotOf = [&](ResourceId id) {
        for (const TransientResource& t : graph.transients)
            if (t.resource == id)
                return t.slot;
        FAIL("no transient " << id);
        return 0u;
    };
    CHECK(slotOf(0) == slotOf(2));
    CHECK(slotOf(1) != slotOf(0));
    CHECK(slotOf(3) != slotOf(0)); // images never share with buffers
    CHECK(slotOf(3) != slotOf(1));
    REQUIRE(graph.slots.size() == 3);
    CHECK(graph.slots[slotOf(0)].bytes == 4000);
    CHECK(graph.slots[slotOf(0)].occupants == std::vector<ResourceId>{0, 2});

    // c's first write waits for a's last reader and a's writes.
    std::vector<Barrier> onC;
    for (const Barrier& b : graph.passes[2].barriers)
        if (b.resource == 2)
            onC.push_back(b);
    REQUIRE(onC.size() == 1);
    CHECK(onC[0] == bufferBarrier(2, kCompute, kStorageWrite, kCompute, kStorageRead | kStorageWrite));
}

TEST_CASE("the compiler refuses uses that cannot work, naming the pass and resource")
{
    GraphDesc readFirst{{transientBuffer("scratch", 64), importedBuffer("out")},
                        {{"early reader", PassKind::Compute, {{0, Use::StorageRead}, {1, Use::StorageWrite}}}}};
    CHECK_THROWS_WITH(compileGraph(readFirst), Catch::Contains("early reader") && Catch::Contains("scratch"));
    GraphDesc vertexInCompute{{importedBuffer("vertices")},
                              {{"wrong kind", PassKind::Compute, {{0, Use::VertexBuffer}}, true}}};
    CHECK_THROWS_AS(compileGraph(vertexInCompute), Error);
    GraphDesc bufferAsImage{{importedBuffer("b")}, {{"confused", PassKind::Compute, {{0, Use::Sampled}}, true}}};
    CHECK_THROWS_WITH(compileGraph(bufferAsImage), Catch::Contains("confused"));
}

namespace {

// A pass that dispatches a shader with these reflected bindings.
PassDesc shaderPass(const char* name, std::vector<ResourceUse> uses, std::vector<ShaderBinding> bindings)
{
    PassDesc pass{name, PassKind::Compute, std::move(uses)};
    pass.shaders.push_back({"extract/example", std::move(bindings)});
    return pass;
}

ShaderBinding storage(uint32_t binding, const char* name, bool writable)
{
    return {binding, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, name, writable, true};
}

} // namespace

TEST_CASE("the graph accepts a pass whose uses match its shader's reflected bindings")
{
    GraphDesc desc{{importedBuffer("ranges"), importedBuffer("list")},
                   {shaderPass("compact", {{0, Use::StorageRead, 0}, {1, Use::StorageWrite, 1}},
                               {storage(0, "Ranges", false), storage(1, "List", true)})}};
    REQUIRE_NOTHROW(compileGraph(desc));
}

TEST_CASE("the graph rejects a binding the shader writes but the pass declares read-only, naming pass and binding")
{
    GraphDesc desc{{importedBuffer("ranges"), importedBuffer("list")},
                   {shaderPass("compact", {{0, Use::StorageRead, 0}, {1, Use::StorageRead, 1}},
                               {storage(0, "Ranges", false), storage(1, "List", true)})}};
    REQUIRE_THROWS_WITH(compileGraph(desc), Catch::Contains("pass 'compact'") &&
                                                Catch::Contains("binding 1 ('List')") &&
                                                Catch::Contains("the shader writes") &&
                                                Catch::Contains("'list' there as StorageRead"));
}

TEST_CASE("the graph rejects a shader binding the pass does not declare, naming pass and binding")
{
    GraphDesc desc{{importedBuffer("ranges"), importedBuffer("list")},
                   {shaderPass("compact", {{1, Use::StorageWrite, 1}},
                               {storage(0, "Ranges", false), storage(1, "List", true)})}};
    REQUIRE_THROWS_WITH(compileGraph(desc), Catch::Contains("pass 'compact'") &&
                                                Catch::Contains("binding 0 ('Ranges') is not declared"));
}

TEST_CASE("the graph rejects a declared binding the shader lacks, one declared twice, and a wrong descriptor kind")
{
    std::vector<ShaderBinding> bindings = {storage(0, "Ranges", false)};
    GraphDesc extra{{importedBuffer("ranges")},
                    {shaderPass("p", {{0, Use::StorageRead, 0}, {0, Use::StorageRead, 3}}, bindings)}};
    REQUIRE_THROWS_WITH(compileGraph(extra), Catch::Contains("declares binding 3"));
    GraphDesc twice{{importedBuffer("ranges")},
                    {shaderPass("p", {{0, Use::StorageRead, 0}, {0, Use::StorageWrite, 0}}, bindings)}};
    REQUIRE_THROWS_WITH(compileGraph(twice), Catch::Contains("declares binding 0 twice"));
    GraphDesc image{{transientImage("color")},
                    {shaderPass("p", {{0, Use::Sampled, 0}}, bindings)}};
    REQUIRE_THROWS_WITH(compileGraph(image), Catch::Contains("is a storage buffer but the pass declares it as Sampled"));
}

TEST_CASE("a pass with shader variants is checked against each variant")
{
    PassDesc pass{"raycast", PassKind::Compute, {{0, Use::StorageRead, 0}, {1, Use::StorageWrite, 1}}};
    pass.shaders.push_back({"standard", {storage(0, "Classes", false), storage(1, "Tail", true)}});
    pass.shaders.push_back({"warp", {storage(0, "Classes", false)}});
    GraphDesc desc{{importedBuffer("classes"), importedBuffer("tail")}, {pass}};
    REQUIRE_NOTHROW(compileGraph(desc));
    desc.passes[0].shaders[1].bindings[0].writable = true; // the warp variant writes binding 0
    REQUIRE_THROWS_WITH(compileGraph(desc), Catch::Contains("pass 'raycast' (shader warp)") &&
                                                Catch::Contains("binding 0 ('Classes')"));
}

TEST_CASE("a sampled image already in GENERAL is sampled there: no layout change, no barrier")
{
    ResourceDesc volume{"volume", true, true};
    volume.initialState.layout = VK_IMAGE_LAYOUT_GENERAL;
    volume.extent = {8, 8};
    volume.format = VK_FORMAT_R8_UNORM;
    GraphDesc desc{{volume, importedBuffer("out")},
                   {{"a", PassKind::Compute, {{0, Use::Sampled}, {1, Use::StorageWrite}}},
                    {"b", PassKind::Compute, {{0, Use::Sampled}, {1, Use::StorageWrite}}}}};
    CompiledGraph graph = compileGraph(desc);
    for (const CompiledPass& pass : graph.passes)
        for (const Barrier& barrier : pass.barriers)
            CHECK(barrier.resource != 0);
}

TEST_CASE("push constants are checked member by member against the shader's block")
{
    std::vector<PushMember> shader = {{"nx", 0, 4}, {"iso", 4, 4}, {"origin", 16, 12}};
    REQUIRE_NOTHROW(checkPushLayout("s", shader, {{"nx", 0, 4}, {"iso", 4, 4}, {"origin", 16, 12}}));
    REQUIRE_THROWS_WITH(checkPushLayout("s", shader, {{"nx", 0, 4}, {"iso", 4, 4}, {"origin", 8, 12}}),
                        Catch::Contains("member 2 'origin' at byte 16 (12 bytes)") &&
                            Catch::Contains("C++ struct's 'origin' at byte 8"));
    REQUIRE_THROWS_WITH(checkPushLayout("s", shader, {{"nx", 0, 4}, {"iso", 4, 4}}),
                        Catch::Contains("has no C++ counterpart"));
    REQUIRE_THROWS_WITH(checkPushLayout("s", {{"nx", 0, 4}}, {{"nx", 0, 4}, {"iso", 4, 4}}),
                        Catch::Contains("past the shader's last"));
}

TEST_CASE("an image crossing queue families is released at the end of one graph and acquired at the first use "
          "in the other, naming the same layouts")
{
    constexpr uint32_t kTransferFamily = 1, kMainFamily = 0;
    const VkPipelineStageFlags2 copy = useState(Use::TransferDst, PassKind::Transfer).stage;
    const VkAccessFlags2 copyWrite = useState(Use::TransferDst, PassKind::Transfer).access;

    // The upload, on the transfer queue's family: old contents discarded, left in GENERAL for the main family.
    ResourceDesc slab{"slab image", true, true};
    slab.initialState = {VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_NONE, VK_IMAGE_LAYOUT_UNDEFINED};
    slab.hasFinalState = true;
    slab.finalState = {VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT, VK_IMAGE_LAYOUT_GENERAL,
                       kMainFamily};
    GraphDesc upload{{importedBuffer("staging"), slab},
                     {{"upload", PassKind::Transfer, {{0, Use::TransferSrc}, {1, Use::TransferDst}}}},
                     kTransferFamily};
    CompiledGraph released = compileGraph(upload);
    REQUIRE(released.passes.size() == 1);
    REQUIRE(released.passes[0].barriers.size() == 1); // the staging buffer: written by the host, nothing pending
    CHECK(released.passes[0].barriers[0] == Barrier{1, true, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_NONE,
                                                    copy, copyWrite, VK_IMAGE_LAYOUT_UNDEFINED,
                                                    VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL});
    REQUIRE(released.finalBarriers.size() == 1);
    Barrier release = released.finalBarriers[0];
    CHECK(release == Barrier{1, true, copy, copyWrite, VK_PIPELINE_STAGE_2_NONE, VK_ACCESS_2_NONE,
                             VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_GENERAL, kTransferFamily,
                             kMainFamily});

    // The extraction, on the main family, samples it (in GENERAL) and writes a buffer.
    ResourceDesc arriving{"volume", true, true};
    arriving.initialState = {VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
                             VK_IMAGE_LAYOUT_GENERAL, kTransferFamily, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL};
    GraphDesc extract{{arriving, importedBuffer("mesh")},
                      {{"extract", PassKind::Compute, {{0, Use::Sampled}, {1, Use::StorageWrite}}},
                       {"extract again", PassKind::Compute, {{0, Use::Sampled}, {1, Use::StorageWrite}}}},
                      kMainFamily};
    CompiledGraph acquired = compileGraph(extract);
    REQUIRE(acquired.passes.size() == 2);
    REQUIRE(acquired.passes[0].barriers.size() == 1); // the acquire; the mesh had nothing pending
    Barrier acquire = acquired.passes[0].barriers[0];
    CHECK(acquire == Barrier{0, true, VK_PIPELINE_STAGE_2_NONE, VK_ACCESS_2_NONE, kCompute,
                             VK_ACCESS_2_SHADER_SAMPLED_READ_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                             VK_IMAGE_LAYOUT_GENERAL, kTransferFamily, kMainFamily});
    CHECK(acquire.oldLayout == release.oldLayout);
    CHECK(acquire.newLayout == release.newLayout);
    // The second reader already sees what the acquire made visible.
    for (const Barrier& b : acquired.passes[1].barriers)
        CHECK(b.resource != 0);

    // One queue for both (no dedicated transfer family): ordinary barriers, no family named.
    upload.queueFamily = kMainFamily;
    CompiledGraph same = compileGraph(upload);
    REQUIRE(same.finalBarriers.size() == 1);
    CHECK(same.finalBarriers[0] == Barrier{1, true, copy, copyWrite, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                                           VK_ACCESS_2_MEMORY_READ_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                                           VK_IMAGE_LAYOUT_GENERAL});
    arriving.initialState.queueFamily = kMainFamily;
    extract.resources[0] = arriving;
    CompiledGraph sameAcquired = compileGraph(extract);
    REQUIRE(sameAcquired.passes[0].barriers.size() == 1);
    CHECK(sameAcquired.passes[0].barriers[0] == Barrier{0, true, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                                                        VK_ACCESS_2_MEMORY_WRITE_BIT, kCompute,
                                                        VK_ACCESS_2_SHADER_SAMPLED_READ_BIT, VK_IMAGE_LAYOUT_GENERAL,
                                                        VK_IMAGE_LAYOUT_GENERAL});
}

TEST_CASE("an acquired image whose first use needs another layout changes it after the acquire")
{
    ResourceDesc arriving{"image", true, true};
    arriving.initialState = {VK_PIPELINE_STAGE_2_NONE, VK_ACCESS_2_NONE, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1};
    GraphDesc desc{{arriving, importedBuffer("out")},
                   {{"read", PassKind::Compute, {{0, Use::StorageImageRead}, {1, Use::StorageWrite}}}},
                   0};
    CompiledGraph graph = compileGraph(desc);
    REQUIRE(graph.passes[0].barriers.size() == 2);
    const Barrier& acquire = graph.passes[0].barriers[0];
    CHECK(acquire.srcQueueFamily == 1);
    CHECK(acquire.dstQueueFamily == 0);
    CHECK(acquire.oldLayout == VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    CHECK(acquire.newLayout == VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    CHECK(graph.passes[0].barriers[1] == Barrier{0, true, kCompute, VK_ACCESS_2_NONE, kCompute, kStorageRead,
                                                 VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_GENERAL});
}
