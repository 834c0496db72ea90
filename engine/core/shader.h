#pragma once
// Shaders and compute programs, with every layout taken from the SPIR-V.
//
// A Shader is an embedded SPIR-V module (compiled from shaders/ at build time)
// plus what SPIRV-Cross reflects from it: descriptor bindings of set 0, the
// push-constant size, the workgroup size and the specialization constants by
// name. A ComputeProgram builds its descriptor-set layout (push descriptors),
// pipeline layout and pipeline from that reflection, so a shader and its C++
// binding cannot drift apart.
//
// Specialization: a constant named SUBGROUP_SIZE always receives the size the
// device runs compute shaders at, and where the device can, the pipeline
// requires exactly that size (VK_EXT_subgroup_size_control, core in 1.3), so
// shader arithmetic on it is exact on every vendor.
#include <array>
#include <cstdint>
#include <future>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <volk.h>

#include "core/math_util.h"

namespace isoscope {

class Context;

struct ShaderBinding {
    uint32_t binding = 0;
    VkDescriptorType type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    std::string name;         // the GLSL block or variable name, for messages
    bool writable = false;    // storage buffers and images not declared readonly (NonWritable)
    bool readable = true;     // false where declared writeonly (NonReadable)
};

// One member of a push-constant block: where it lies in the block.
struct PushMember {
    std::string name;
    uint32_t offset = 0;
    uint32_t size = 0;
};

struct SpecConstant {
    uint32_t constantId = 0;
    std::string name;
    uint32_t defaultValue = 0;
};

struct Shader {
    std::string name;
    std::span<const uint32_t> spirv;
    VkShaderStageFlagBits stage = VK_SHADER_STAGE_COMPUTE_BIT;
    std::vector<ShaderBinding> bindings; // set 0, sorted by binding
    uint32_t pushConstantSize = 0;
    std::vector<PushMember> pushMembers; // in declaration order
    std::array<uint32_t, 3> localSize{1, 1, 1};          // default values
    std::array<int32_t, 3> localSizeConstantIds{-1, -1, -1}; // -1: a literal size
    std::vector<SpecConstant> specConstants;
};

// The embedded shader "dir/name" (shaders/dir/name.comp), reflected.
// Throws Error if no such shader was compiled in.
Shader loadShader(std::string_view name);

using SpecValues = std::vector<std::pair<std::string, uint32_t>>;

// One descriptor for pushDescriptors(): a buffer range or an image view.
struct DescriptorInfo {
    union {
        VkDescriptorBufferInfo buffer;
        VkDescriptorImageInfo image;
    };
    DescriptorInfo(VkBuffer b, VkDeviceSize offset = 0, VkDeviceSize range = VK_WHOLE_SIZE) : buffer{b, offset, range} {}
    DescriptorInfo(VkSampler sampler, VkImageView view, VkImageLayout layout) : image{sampler, view, layout} {}
};

// What a program binds through: a push-descriptor set layout (set 0), the
// pipeline layout with one push-constant range, and the update template that
// pushes one DescriptorInfo per binding (none without bindings). Compute and
// graphics programs share it. Each handle is stored as soon as it exists, so
// the caller's destroy() cleans up after a failure part way.
void createProgramLayout(VkDevice device, const std::vector<VkDescriptorSetLayoutBinding>& bindings,
                         VkShaderStageFlags pushStages, uint32_t pushConstantSize, VkPipelineBindPoint bindPoint,
                         VkDescriptorSetLayout& setLayout, VkPipelineLayout& layout,
                         VkDescriptorUpdateTemplate& updateTemplate);
// Destroys what createProgramLayout made and the pipeline; null handles are skipped.
void destroyProgram(VkDevice device, VkPipeline pipeline, VkDescriptorUpdateTemplate updateTemplate,
                    VkPipelineLayout layout, VkDescriptorSetLayout setLayout) noexcept;

struct Specialization; // shader.cpp

class ComputeProgram {
public:
    ComputeProgram(Context& context, const Shader& shader, const SpecValues& values = {});
    ~ComputeProgram();
    ComputeProgram(const ComputeProgram&) = delete;
    ComputeProgram& operator=(const ComputeProgram&) = delete;

    const std::array<uint32_t, 3>& localSize() const { return localSize_; } // after specialization
    const std::string& name() const { return name_; }
    const std::vector<ShaderBinding>& bindings() const { return bindings_; }
    const std::vector<PushMember>& pushMembers() const { return pushMembers_; }

    // Binds the pipeline, pushes one descriptor per binding (in binding order)
    // and the push constants (their size must match the shader's).
    void bind(VkCommandBuffer cmd, std::initializer_list<DescriptorInfo> descriptors, const void* pushConstants = nullptr,
              uint32_t pushConstantBytes = 0) const
    {
        bind(cmd, std::span<const DescriptorInfo>(descriptors.begin(), descriptors.size()), pushConstants,
             pushConstantBytes);
    }
    void bind(VkCommandBuffer cmd, std::span<const DescriptorInfo> descriptors, const void* pushConstants = nullptr,
              uint32_t pushConstantBytes = 0) const;
    void dispatch(VkCommandBuffer cmd, uint32_t x, uint32_t y = 1, uint32_t z = 1) const;
    // `groups` workgroups in a line, folded into y past the device's
    // maxComputeWorkGroupCount[0] (splitGroups): the shader's workgroup index
    // is gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x.
    void dispatchLine(VkCommandBuffer cmd, uint64_t groups) const;

private:
    void createLayouts();
    void createPipeline(const Shader& shader, const Specialization& specialization);
    VkPipeline pipeline() const; // waits for the compile where it runs on a thread of its own
    void recordStatistics(); // ContextOptions::capturePipelineStatistics
    void destroy() noexcept;

    Context& context_;
    std::string name_;
    std::vector<ShaderBinding> bindings_;
    std::vector<PushMember> pushMembers_;
    uint32_t pushConstantSize_ = 0;
    std::array<uint32_t, 3> localSize_{1, 1, 1};
    VkDescriptorSetLayout setLayout_ = VK_NULL_HANDLE;
    VkPipelineLayout layout_ = VK_NULL_HANDLE;
    VkDescriptorUpdateTemplate updateTemplate_ = VK_NULL_HANDLE;
    VkPipeline pipeline_ = VK_NULL_HANDLE;
    // The pipeline's compile where it runs beside the caller's work (the
    // other programs' compiles, the uploads); invalid where it ran in the constructor.
    std::shared_future<void> compiled_;
};

// Workgroups needed to cover `threads` invocations with groups of `localSize`.
inline uint32_t groupCount(uint64_t threads, uint32_t localSize) { return uint32_t(ceilDiv(threads, localSize)); }

// How dispatchLine folds `groups` workgroups: x at most `maxX` (the device's
// maxComputeWorkGroupCount[0]), as many rows of that as needed along y.
std::array<uint32_t, 2> splitGroups(uint64_t groups, uint32_t maxX);

// The C++ side of a push-constant block, member by member, for
// checkPushLayout: PUSH_MEMBER(GridPush, iso) names a member of a struct.
#define ISOSCOPE_PUSH_MEMBER(Struct, member) \
    ::isoscope::PushMember{#member, uint32_t(offsetof(Struct, member)), uint32_t(sizeof(Struct::member))}

// Throws Error naming the shader and the member where `members` (the C++
// struct's, in any order: they are compared by offset) and the shader's
// reflected push-constant block differ in count, offset or size: a C++ struct that drifted from its
// GLSL block would otherwise pass garbage without any error.
void checkPushLayout(const std::string& shader, const std::vector<PushMember>& reflected,
                     const std::vector<PushMember>& members);

} // namespace isoscope
