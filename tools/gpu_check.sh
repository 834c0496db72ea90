#!/usr/bin/env bash
# Runs the GPU test binary and `isoscope info` on a machine with a real GPU
# but no Vulkan loader or validation layers installed (the device machine of
# docs/BENCHMARKS.md): unpacks the carried Debian packages, points the loader
# at the validation layer, and checks the subgroup size the GPU reports.
# DEB_DIR holds the amd64 .debs of libvulkan1, vulkan-validationlayers and
# libglvnd (libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2): NVIDIA's
# Vulkan ICD is libGLX_nvidia, which fails to load without libglvnd.
#   tools/gpu_check.sh BIN_DIR DEB_DIR EXPECTED_SUBGROUP_SIZE
set -euo pipefail
bin=$1 debs=$2 expected=$3
for f in "$debs"/*.deb; do dpkg -x "$f" /; done
ldconfig
export VK_LAYER_PATH=/usr/share/vulkan/explicit_layer.d
"$bin/isoscope" info
ISOSCOPE_EXPECT_SUBGROUP_SIZE=$expected "$bin/isoscope_tests_gpu" --durations yes
