#include "core/shader.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <string_view>
#include <vector>

#include <spirv_cross/spirv_cross_c.h>

#include "core/context.h"
#include "core/descriptor_limits.h"
#include "core/vk_check.h"

namespace isoscope {

std::span<const uint32_t> findEmbeddedShader(std::string_view name); // shaders/shader_registry.cpp.in

namespace {

struct SpvcContext {
    spvc_context handle = nullptr;
    SpvcContext() { spvc_context_create(&handle); }
    ~SpvcContext() { spvc_context_destroy(handle); }
};

void checkSpvc(spvc_result result, spvc_context context, const std::string& shader, const char* step)
{
    if (result != SPVC_SUCCESS)
        fail("cannot reflect shader " + shader + " (" + step + "): " + spvc_context_get_last_error_string(context));
}

VkShaderStageFlagBits stageOf(SpvExecutionModel model, const std::string& name)
{
    switch (model) {
    case SpvExecutionModelGLCompute: return VK_SHADER_STAGE_COMPUTE_BIT;
    case SpvExecutionModelVertex: return VK_SHADER_STAGE_VERTEX_BIT;
    case SpvExecutionModelFragment: return VK_SHADER_STAGE_FRAGMENT_BIT;
    default: fail("shader " + name + " has an execution model isoscope does not use");
    }
}

// The workgroup size, read from the SPIR-V itself: glslang targeting SPIR-V
// 1.6 writes `local_size_x_id` as OpExecutionModeId LocalSizeId, which this
// SPIRV-Cross version does not reflect. A size given by a specialization
// constant defaults to the named constant that shares its SpecId (the GLSL
// `const uint WORKGROUP_SIZE = 128`), not to the anonymous default of 1.
void reflectWorkgroupSize(Shader& shader)
{
    constexpr uint32_t OpExecutionMode = 16, OpExecutionModeId = 331, OpDecorate = 71, OpConstant = 43,
                       OpSpecConstant = 50, LocalSize = 17, LocalSizeId = 38, DecorationSpecId = 1;
    std::span<const uint32_t> words = shader.spirv;
    std::map<uint32_t, uint32_t> specIdOf, valueOf;
    std::array<uint32_t, 3> sizeIds{0, 0, 0};
    bool byId = false;
    for (size_t at = 5; at < words.size();) {
        uint32_t count = words[at] >> 16, opcode = words[at] & 0xffff;
        if (count == 0 || at + count > words.size())
            fail("shader " + shader.name + " is not valid SPIR-V (engine bug)");
        const uint32_t* op = &words[at + 1];
        if (opcode == OpExecutionMode && count >= 6 && op[1] == LocalSize)
            shader.localSize = {op[2], op[3], op[4]};
        if (opcode == OpExecutionModeId && count >= 6 && op[1] == LocalSizeId) {
            sizeIds = {op[2], op[3], op[4]};
            byId = true;
        }
        if (opcode == OpDecorate && count >= 4 && op[1] == DecorationSpecId)
            specIdOf[op[0]] = op[2];
        if ((opcode == OpConstant || opcode == OpSpecConstant) && count >= 4)
            valueOf[op[1]] = op[2];
        at += count;
    }
    if (!byId)
        return;
    for (unsigned axis = 0; axis < 3; ++axis) {
        shader.localSize[axis] = valueOf[sizeIds[axis]];
        auto specId = specIdOf.find(sizeIds[axis]);
        if (specId == specIdOf.end())
            continue;
        shader.localSizeConstantIds[axis] = int32_t(specId->second);
        for (const SpecConstant& constant : shader.specConstants)
            if (constant.constantId == specId->second && !constant.name.empty())
                shader.localSize[axis] = constant.defaultValue;
    }
}

// ISOSCOPE_SHADER_DIR=DIR: shader NAME is read from DIR/NAME.spv where that
// file exists (glslang -V output), instead of the copy built into isoscope.
// For shader work on a remote GPU: variants travel as small files and run
// with one binary, where a rebuild per variant would cost a build and a copy
// of the whole binary each. Files read stay loaded for the process's life.
std::span<const uint32_t> findOverriddenShader(const std::string& name)
{
    const char* dir = std::getenv("ISOSCOPE_SHADER_DIR");
    if (!dir || !*dir)
        return {};
    static std::mutex mutex;
    static std::map<std::string, std::vector<uint32_t>> loaded;
    std::lock_guard lock(mutex);
    if (auto it = loaded.find(name); it != loaded.end())
        return it->second;
    std::string path = std::string(dir) + "/" + name + ".spv";
    std::ifstream file(path, std::ios::binary | std::ios::ate);
    if (!file)
        return {};
    std::streamoff size = file.tellg();
    if (size <= 0 || size % 4 != 0)
        fail("ISOSCOPE_SHADER_DIR: " + path + " is not SPIR-V (its size is not a whole number of words)");
    std::vector<uint32_t> words(size_t(size) / 4);
    file.seekg(0);
    if (!file.read(reinterpret_cast<char*>(words.data()), size))
        fail("ISOSCOPE_SHADER_DIR: cannot read " + path);
    std::fprintf(stderr, "isoscope: shader %s read from %s (ISOSCOPE_SHADER_DIR)\n", name.c_str(), path.c_str());
    return loaded.emplace(name, std::move(words)).first->second;
}

// Whether a binding is written or read, from the decorations GLSL's
// readonly/writeonly become: on the variable for images, on every member of
// the block for buffers. Uniform buffers and sampled images are read only.
void reflectAccess(spvc_compiler compiler, spvc_context context, const std::string& shader, spvc_variable_id id,
                   ShaderBinding& binding)
{
    binding.writable = false;
    binding.readable = true;
    if (binding.type == VK_DESCRIPTOR_TYPE_STORAGE_IMAGE) {
        binding.writable = !spvc_compiler_has_decoration(compiler, id, SpvDecorationNonWritable);
        binding.readable = !spvc_compiler_has_decoration(compiler, id, SpvDecorationNonReadable);
        return;
    }
    if (binding.type != VK_DESCRIPTOR_TYPE_STORAGE_BUFFER)
        return;
    const SpvDecoration* decorations = nullptr;
    size_t count = 0;
    checkSpvc(spvc_compiler_get_buffer_block_decorations(compiler, id, &decorations, &count), context, shader,
              "buffer decorations");
    binding.writable = true;
    for (size_t i = 0; i < count; ++i) {
        if (decorations[i] == SpvDecorationNonWritable)
            binding.writable = false;
        if (decorations[i] == SpvDecorationNonReadable)
            binding.readable = false;
    }
}

} // namespace

void checkPushLayout(const std::string& shader, const std::vector<PushMember>& reflectedMembers,
                     const std::vector<PushMember>& structMembers)
{
    auto byOffset = [](std::vector<PushMember> list) {
        std::stable_sort(list.begin(), list.end(),
                         [](const PushMember& a, const PushMember& b) { return a.offset < b.offset; });
        return list;
    };
    const std::vector<PushMember> reflected = byOffset(reflectedMembers), members = byOffset(structMembers);
    auto describe = [](const PushMember& m) {
        return "'" + m.name + "' at byte " + std::to_string(m.offset) + " (" + std::to_string(m.size) + " bytes)";
    };
    for (size_t i = 0; i < std::max(reflected.size(), members.size()); ++i) {
        if (i >= reflected.size())
            fail("push constants of shader " + shader + ": the C++ struct has member " + describe(members[i]) +
                 " past the shader's last (engine bug)");
        if (i >= members.size())
            fail("push constants of shader " + shader + ": the shader's member " + describe(reflected[i]) +
                 " has no C++ counterpart (engine bug)");
        if (reflected[i].offset != members[i].offset || reflected[i].size != members[i].size)
            fail("push constants of shader " + shader + ": the shader's member " + std::to_string(i) + " " +
                 describe(reflected[i]) + " but the C++ struct's " + describe(members[i]) + " (engine bug)");
    }
}

Shader loadShader(std::string_view name)
{
    Shader shader;
    shader.name = name;
    shader.spirv = findOverriddenShader(shader.name);
    if (shader.spirv.empty())
        shader.spirv = findEmbeddedShader(name);
    if (shader.spirv.empty())
        fail("no shader named '" + shader.name + "' is built into isoscope (engine bug: check shaders/)");

    SpvcContext context;
    spvc_parsed_ir ir = nullptr;
    spvc_compiler compiler = nullptr;
    spvc_resources resources = nullptr;
    checkSpvc(spvc_context_parse_spirv(context.handle, shader.spirv.data(), shader.spirv.size(), &ir), context.handle,
              shader.name, "parse");
    checkSpvc(spvc_context_create_compiler(context.handle, SPVC_BACKEND_NONE, ir, SPVC_CAPTURE_MODE_TAKE_OWNERSHIP,
                                           &compiler),
              context.handle, shader.name, "compiler");
    checkSpvc(spvc_compiler_create_shader_resources(compiler, &resources), context.handle, shader.name, "resources");
    shader.stage = stageOf(spvc_compiler_get_execution_model(compiler), shader.name);

    const std::pair<spvc_resource_type, VkDescriptorType> kinds[] = {
        {SPVC_RESOURCE_TYPE_UNIFORM_BUFFER, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER},
        {SPVC_RESOURCE_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER},
        {SPVC_RESOURCE_TYPE_STORAGE_IMAGE, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE},
        {SPVC_RESOURCE_TYPE_SAMPLED_IMAGE, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER},
    };
    for (auto [kind, descriptorType] : kinds) {
        const spvc_reflected_resource* list = nullptr;
        size_t count = 0;
        checkSpvc(spvc_resources_get_resource_list_for_type(resources, kind, &list, &count), context.handle,
                  shader.name, "resource list");
        for (size_t i = 0; i < count; ++i) {
            unsigned set = spvc_compiler_get_decoration(compiler, list[i].id, SpvDecorationDescriptorSet);
            if (set != 0)
                fail("shader " + shader.name + " uses descriptor set " + std::to_string(set) +
                     "; isoscope shaders use set 0 only");
            ShaderBinding binding{spvc_compiler_get_decoration(compiler, list[i].id, SpvDecorationBinding),
                                  descriptorType, list[i].name ? list[i].name : ""};
            // Anonymous buffer blocks (`buffer Ranges { ... };`) go by their block name.
            if (binding.name.empty())
                if (const char* block = spvc_compiler_get_name(compiler, list[i].base_type_id))
                    binding.name = block;
            reflectAccess(compiler, context.handle, shader.name, list[i].id, binding);
            shader.bindings.push_back(std::move(binding));
        }
    }
    std::sort(shader.bindings.begin(), shader.bindings.end(),
              [](const ShaderBinding& a, const ShaderBinding& b) { return a.binding < b.binding; });
    for (size_t i = 0; i < shader.bindings.size(); ++i)
        if (shader.bindings[i].binding != i)
            fail("shader " + shader.name + " leaves binding " + std::to_string(i) +
                 " unused; bindings must be numbered 0, 1, 2, ... without gaps");

    const spvc_reflected_resource* pushConstants = nullptr;
    size_t pushCount = 0;
    checkSpvc(spvc_resources_get_resource_list_for_type(resources, SPVC_RESOURCE_TYPE_PUSH_CONSTANT, &pushConstants,
                                                        &pushCount),
              context.handle, shader.name, "push constants");
    if (pushCount > 0) {
        size_t size = 0;
        spvc_type type = spvc_compiler_get_type_handle(compiler, pushConstants[0].base_type_id);
        checkSpvc(spvc_compiler_get_declared_struct_size(compiler, type, &size), context.handle, shader.name,
                  "push constant size");
        shader.pushConstantSize = uint32_t(size);
        unsigned members = spvc_type_get_num_member_types(type);
        for (unsigned m = 0; m < members; ++m) {
            unsigned offset = 0;
            size_t memberSize = 0;
            checkSpvc(spvc_compiler_type_struct_member_offset(compiler, type, m, &offset), context.handle,
                      shader.name, "push constant member offset");
            checkSpvc(spvc_compiler_get_declared_struct_member_size(compiler, type, m, &memberSize), context.handle,
                      shader.name, "push constant member size");
            const char* name = spvc_compiler_get_member_name(compiler, pushConstants[0].base_type_id, m);
            shader.pushMembers.push_back({name ? name : "", offset, uint32_t(memberSize)});
        }
    }

    const spvc_specialization_constant* constants = nullptr;
    size_t constantCount = 0;
    checkSpvc(spvc_compiler_get_specialization_constants(compiler, &constants, &constantCount), context.handle,
              shader.name, "specialization constants");
    for (size_t i = 0; i < constantCount; ++i) {
        spvc_constant constant = spvc_compiler_get_constant_handle(compiler, constants[i].id);
        shader.specConstants.push_back({constants[i].constant_id, spvc_compiler_get_name(compiler, constants[i].id),
                                        spvc_constant_get_scalar_u32(constant, 0, 0)});
    }

    if (shader.stage == VK_SHADER_STAGE_COMPUTE_BIT)
        reflectWorkgroupSize(shader);
    return shader;
}

// The specialization constants a pipeline gets: SUBGROUP_SIZE from the
// device, the rest by name from `values`; a workgroup size that is a constant
// always gets a value, so the pipeline runs at the size the GLSL declares as
// the constant's default.
struct Specialization {
    std::vector<VkSpecializationMapEntry> entries;
    std::vector<uint32_t> data;
    std::array<uint32_t, 3> localSize{1, 1, 1};
};

namespace {

Specialization specialize(const Shader& shader, const SpecValues& values, const DeviceInfo& info)
{
    std::map<uint32_t, uint32_t> constantValues;
    for (const SpecConstant& constant : shader.specConstants)
        if (constant.name == "SUBGROUP_SIZE")
            constantValues[constant.constantId] = info.subgroupSize;
    for (const auto& [name, value] : values) {
        auto it = std::find_if(shader.specConstants.begin(), shader.specConstants.end(),
                               [&](const SpecConstant& c) { return c.name == name; });
        if (it == shader.specConstants.end())
            fail("shader " + shader.name + " has no specialization constant named " + name + " (engine bug)");
        constantValues[it->constantId] = value;
    }
    Specialization result;
    result.localSize = shader.localSize;
    for (unsigned axis = 0; axis < 3; ++axis) {
        if (shader.localSizeConstantIds[axis] < 0)
            continue;
        uint32_t id = uint32_t(shader.localSizeConstantIds[axis]);
        constantValues.try_emplace(id, shader.localSize[axis]);
        result.localSize[axis] = constantValues[id];
    }
    for (auto [id, value] : constantValues) {
        result.entries.push_back({id, uint32_t(result.data.size() * sizeof(uint32_t)), sizeof(uint32_t)});
        result.data.push_back(value);
    }
    uint32_t invocations = result.localSize[0] * result.localSize[1] * result.localSize[2];
    if (invocations > info.maxWorkgroupInvocations())
        fail("shader " + shader.name + " asks for workgroups of " + std::to_string(invocations) +
             " invocations; " + info.name + " allows " + std::to_string(info.maxWorkgroupInvocations()) +
             " at subgroup size " + std::to_string(info.subgroupSize) +
             " (engine bug: size workgroups by DeviceInfo::maxWorkgroupInvocations)");
    return result;
}

} // namespace

ComputeProgram::ComputeProgram(Context& context, const Shader& shader, const SpecValues& values)
    : context_(context), name_(shader.name), bindings_(shader.bindings), pushMembers_(shader.pushMembers),
      pushConstantSize_(shader.pushConstantSize)
{
    if (shader.stage != VK_SHADER_STAGE_COMPUTE_BIT)
        fail("shader " + shader.name + " is not a compute shader");
    Specialization specialization = specialize(shader, values, context.info());
    localSize_ = specialization.localSize;
    std::vector<VkDescriptorType> types;
    for (const ShaderBinding& binding : bindings_)
        types.push_back(binding.type);
    if (std::string problem = descriptorLimitsProblem("shader " + name_, types, context.info()); !problem.empty())
        fail(problem);
    try {
        createLayouts();
        createPipeline(shader, specialization);
    } catch (...) {
        destroy(); // a destructor does not run for a constructor that throws
        throw;
    }
}

void destroyProgram(VkDevice device, VkPipeline pipeline, VkDescriptorUpdateTemplate updateTemplate,
                    VkPipelineLayout layout, VkDescriptorSetLayout setLayout) noexcept
{
    vkDestroyPipeline(device, pipeline, nullptr);
    vkDestroyDescriptorUpdateTemplate(device, updateTemplate, nullptr);
    vkDestroyPipelineLayout(device, layout, nullptr);
    vkDestroyDescriptorSetLayout(device, setLayout, nullptr);
}

void createProgramLayout(VkDevice device, const std::vector<VkDescriptorSetLayoutBinding>& bindings,
                         VkShaderStageFlags pushStages, uint32_t pushConstantSize, VkPipelineBindPoint bindPoint,
                         VkDescriptorSetLayout& setLayout, VkPipelineLayout& layout,
                         VkDescriptorUpdateTemplate& updateTemplate)
{
    VkDescriptorSetLayoutCreateInfo setInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    setInfo.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR;
    setInfo.bindingCount = uint32_t(bindings.size());
    setInfo.pBindings = bindings.data();
    VK_CHECK(vkCreateDescriptorSetLayout(device, &setInfo, nullptr, &setLayout));

    VkPushConstantRange pushRange{pushStages, 0, pushConstantSize};
    VkPipelineLayoutCreateInfo layoutInfo{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    layoutInfo.setLayoutCount = 1;
    layoutInfo.pSetLayouts = &setLayout;
    layoutInfo.pushConstantRangeCount = pushConstantSize ? 1 : 0;
    layoutInfo.pPushConstantRanges = &pushRange;
    VK_CHECK(vkCreatePipelineLayout(device, &layoutInfo, nullptr, &layout));

    if (bindings.empty())
        return;
    std::vector<VkDescriptorUpdateTemplateEntry> entries;
    for (const VkDescriptorSetLayoutBinding& binding : bindings)
        entries.push_back({binding.binding, 0, 1, binding.descriptorType, binding.binding * sizeof(DescriptorInfo),
                           sizeof(DescriptorInfo)});
    VkDescriptorUpdateTemplateCreateInfo templateInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_UPDATE_TEMPLATE_CREATE_INFO};
    templateInfo.descriptorUpdateEntryCount = uint32_t(entries.size());
    templateInfo.pDescriptorUpdateEntries = entries.data();
    templateInfo.templateType = VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_PUSH_DESCRIPTORS_KHR;
    templateInfo.pipelineBindPoint = bindPoint;
    templateInfo.pipelineLayout = layout;
    templateInfo.set = 0;
    VK_CHECK(vkCreateDescriptorUpdateTemplate(device, &templateInfo, nullptr, &updateTemplate));
}

void ComputeProgram::createLayouts()
{
    std::vector<VkDescriptorSetLayoutBinding> layoutBindings;
    for (const ShaderBinding& binding : bindings_)
        layoutBindings.push_back({binding.binding, binding.type, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr});
    createProgramLayout(context_.device(), layoutBindings, VK_SHADER_STAGE_COMPUTE_BIT, pushConstantSize_,
                        VK_PIPELINE_BIND_POINT_COMPUTE, setLayout_, layout_, updateTemplate_);
}

void ComputeProgram::createPipeline(const Shader& shader, const Specialization& specialization)
{
    // What the compile reads, owned by it: it may outlive the caller's shader and specialization.
    auto compile = [this, spirv = std::vector<uint32_t>(shader.spirv.begin(), shader.spirv.end()),
                    entries = specialization.entries, data = specialization.data] {
        const DeviceInfo& info = context_.info();
        VkDevice device = context_.device();
        VkSpecializationInfo specializationInfo{uint32_t(entries.size()), entries.data(), data.size() * sizeof(uint32_t),
                                                data.data()};
        // Every usable device can fix the subgroup size (Context checks it), so
        // gl_SubgroupSize always equals the SUBGROUP_SIZE the shader was given.
        VkPipelineShaderStageRequiredSubgroupSizeCreateInfo requiredSize{
            VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO};
        requiredSize.requiredSubgroupSize = info.subgroupSize;
        VkPipelineShaderStageCreateInfo stage{VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, &requiredSize};
        if (info.computeFullSubgroups && localSize_[0] % info.subgroupSize == 0)
            stage.flags |= VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT;
        stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
        stage.pName = "main";
        stage.pSpecializationInfo = &specializationInfo;

        VkShaderModuleCreateInfo moduleInfo{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
        moduleInfo.codeSize = spirv.size() * sizeof(uint32_t);
        moduleInfo.pCode = spirv.data();
        VK_CHECK(vkCreateShaderModule(device, &moduleInfo, nullptr, &stage.module));
        VkComputePipelineCreateInfo pipelineInfo{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
        pipelineInfo.stage = stage;
        pipelineInfo.layout = layout_;
        if (context_.capturesPipelineStatistics())
            pipelineInfo.flags |= VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR;
        VkResult result =
            vkCreateComputePipelines(device, context_.pipelineCache(), 1, &pipelineInfo, nullptr, &pipeline_);
        vkDestroyShaderModule(device, stage.module, nullptr);
        VK_CHECK(result);
    };
    // A driver compiles a pipeline on the calling thread, and a method's
    // programs, made one after another, took 0.7 s on a cold cache (the
    // H200, docs/BENCHMARKS.md): each compiles on a thread of its own, so
    // they compile together and beside the caller's work; the first bind
    // waits. Not where the cache is the host's (it may be externally
    // synchronized), statistics are captured (recorded in order), or the
    // device is the CPU: Debian 12's lavapipe corrupted its heap with
    // pipelines compiled at once (the suite at subgroup size 4), and its
    // compiles share the cores its work runs on.
    if (context_.ownsPipelineCache() && !context_.capturesPipelineStatistics() &&
        std::string_view(context_.info().type) != "cpu") {
        compiled_ = std::async(std::launch::async, std::move(compile)).share();
        return;
    }
    compile();
    if (context_.capturesPipelineStatistics())
        recordStatistics();
}

VkPipeline ComputeProgram::pipeline() const
{
    if (compiled_.valid())
        compiled_.get(); // rethrows the compile's error
    return pipeline_;
}

namespace {

std::string statisticText(const VkPipelineExecutableStatisticKHR& statistic)
{
    switch (statistic.format) {
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR: return statistic.value.b32 ? "true" : "false";
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR: return std::to_string(statistic.value.i64);
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR: return std::to_string(statistic.value.u64);
    case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_FLOAT64_KHR: return std::to_string(statistic.value.f64);
    default: return "?";
    }
}

} // namespace

void ComputeProgram::recordStatistics()
{
    VkDevice device = context_.device();
    VkPipelineInfoKHR pipelineInfo{VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR};
    pipelineInfo.pipeline = pipeline_;
    std::vector<VkPipelineExecutablePropertiesKHR> executables = enumerateAll(
        [&](uint32_t* count, auto* items) {
            VK_CHECK(vkGetPipelineExecutablePropertiesKHR(device, &pipelineInfo, count, items));
        },
        VkPipelineExecutablePropertiesKHR{VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_PROPERTIES_KHR});
    for (uint32_t i = 0; i < executables.size(); ++i) {
        VkPipelineExecutableInfoKHR executableInfo{VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR};
        executableInfo.pipeline = pipeline_;
        executableInfo.executableIndex = i;
        std::vector<VkPipelineExecutableStatisticKHR> statistics = enumerateAll(
            [&](uint32_t* count, auto* items) {
                VK_CHECK(vkGetPipelineExecutableStatisticsKHR(device, &executableInfo, count, items));
            },
            VkPipelineExecutableStatisticKHR{VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR});
        PipelineStatistics record{name_, executables[i].name, {}};
        record.values.push_back({"workgroup size", std::to_string(localSize_[0] * localSize_[1] * localSize_[2])});
        record.values.push_back({"subgroup size", std::to_string(executables[i].subgroupSize)});
        for (const VkPipelineExecutableStatisticKHR& statistic : statistics)
            record.values.push_back({statistic.name, statisticText(statistic)});
        context_.recordPipelineStatistics(std::move(record));
    }
}

ComputeProgram::~ComputeProgram() { destroy(); }

void ComputeProgram::destroy() noexcept
{
    if (compiled_.valid())
        compiled_.wait(); // the compile uses the layout; its error, if any, left pipeline_ null
    destroyProgram(context_.device(), pipeline_, updateTemplate_, layout_, setLayout_);
}

void ComputeProgram::bind(VkCommandBuffer cmd, std::span<const DescriptorInfo> descriptors,
                          const void* pushConstants, uint32_t pushConstantBytes) const
{
    if (descriptors.size() != bindings_.size())
        fail("shader " + name_ + " has " + std::to_string(bindings_.size()) + " bindings but " +
             std::to_string(descriptors.size()) + " descriptors were given (engine bug)");
    if (pushConstantBytes != pushConstantSize_)
        fail("shader " + name_ + " takes " + std::to_string(pushConstantSize_) + " bytes of push constants, not " +
             std::to_string(pushConstantBytes) + " (engine bug)");
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline());
    if (updateTemplate_)
        vkCmdPushDescriptorSetWithTemplateKHR(cmd, updateTemplate_, layout_, 0, descriptors.data());
    if (pushConstantSize_)
        vkCmdPushConstants(cmd, layout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, pushConstantSize_, pushConstants);
}

std::array<uint32_t, 2> splitGroups(uint64_t groups, uint32_t maxX)
{
    uint32_t x = uint32_t(std::min<uint64_t>(std::max<uint64_t>(groups, 1), maxX));
    return {groups ? x : 0, uint32_t(ceilDiv(std::max<uint64_t>(groups, 1), x))};
}

void ComputeProgram::dispatchLine(VkCommandBuffer cmd, uint64_t groups) const
{
    std::array<uint32_t, 2> xy = splitGroups(groups, context_.info().maxComputeWorkGroupCount[0]);
    dispatch(cmd, xy[0], xy[1]);
}

void ComputeProgram::dispatch(VkCommandBuffer cmd, uint32_t x, uint32_t y, uint32_t z) const
{
    const DeviceInfo& info = context_.info();
    if (x > info.maxComputeWorkGroupCount[0] || y > info.maxComputeWorkGroupCount[1] ||
        z > info.maxComputeWorkGroupCount[2])
        fail("dispatch of " + std::to_string(x) + "x" + std::to_string(y) + "x" + std::to_string(z) +
             " workgroups of " + name_ + " exceeds the device's limit (engine bug: split the dispatch)");
    if (x && y && z)
        vkCmdDispatch(cmd, x, y, z);
}

} // namespace isoscope
