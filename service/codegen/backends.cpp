// backends.cpp - the one table that says which runtime functions a harness
// calls for each backend (docs/codegen.md "Backends").
//
// Each backend has its own header, define and functions: our own Cortex-M
// kernels are tigris-arm (TIGRIS_HAS_TIGRIS_ARM, tigris_arm_*), our own
// Xtensa kernels tigris-xtensa (TIGRIS_HAS_TIGRIS_XTENSA, tigris_xtensa_*);
// cmsis-nn is the adapter over Arm's CMSIS-NN (TIGRIS_HAS_CMSIS_NN, in a
// runtime built with -DTIGRIS_CMSIS_NN_DIR) and esp-nn the seed's ESP-NN
// adapter API (TIGRIS_HAS_ESP_NN; no runtime of this tree provides it yet).
#include "codegen_internal.hpp"

namespace tigris::codegen {

namespace {

const BackendInfo kBackends[] = {
    {Backend::S8, "s8", "tigris_kernels.h", "", "tigris_dispatch_kernel_s8", "", "", "", "", "", "", false,
     "the portable int8 reference kernels (float32 operators go to the float32 reference)"},
    {Backend::TigrisArm, "tigris-arm", "tigris_kernels_tigris_arm.h", "TIGRIS_HAS_TIGRIS_ARM",
     "tigris_dispatch_kernel_tigris_arm", "tigris_arm_prepare", "tigris_arm_deinit", "&@N@_.mem",
     "TIGRIS_ARM_SCRATCH_BYTES", "tigris_arm_fast_arena_required", "tigris_arm_scratch_required", true,
     "TiGrIS's own Cortex-M int8 kernels (DSP / MVE)"},
    {Backend::CmsisNn, "cmsis-nn", "tigris_kernels_cmsis_nn.h", "TIGRIS_HAS_CMSIS_NN",
     "tigris_dispatch_kernel_cmsis_nn", "tigris_cmsis_nn_prepare", "tigris_cmsis_nn_deinit", "&@N@_.mem",
     "TIGRIS_CMSIS_NN_SCRATCH_BYTES", "tigris_cmsis_nn_fast_arena_required", "tigris_cmsis_nn_scratch_required",
     true, "the CMSIS-NN adapter (Cortex-M)"},
    {Backend::TigrisXtensa, "tigris-xtensa", "tigris_kernels_tigris_xtensa.h", "TIGRIS_HAS_TIGRIS_XTENSA",
     "tigris_dispatch_kernel_tigris_xtensa", "tigris_xtensa_prepare", "tigris_xtensa_deinit", "",
     "TIGRIS_XTENSA_SCRATCH_BYTES", "tigris_xtensa_fast_arena_required", "tigris_xtensa_scratch_required", true,
     "TiGrIS's own Xtensa int8 kernels"},
    {Backend::EspNn, "esp-nn", "tigris_kernels_esp_nn.h", "TIGRIS_HAS_ESP_NN", "tigris_dispatch_kernel_esp_nn",
     "tigris_esp_nn_prepare", "tigris_esp_nn_deinit", "", "", "", "", true,
     "the ESP-NN adapter (ESP32 family; workspace from the platform allocator)"},
};

}  // namespace

const BackendInfo &backend_info(Backend b) {
    for (const BackendInfo &i : kBackends)
        if (i.backend == b) return i;
    return kBackends[0];
}

std::optional<Backend> parse_backend(std::string_view name) {
    for (const BackendInfo &i : kBackends)
        if (name == i.name) return i.backend;
    return std::nullopt;
}

std::string_view backend_name(Backend b) { return backend_info(b).name; }

std::string backend_list() {
    std::string s;
    for (const BackendInfo &i : kBackends) {
        if (!s.empty()) s += ", ";
        s += i.name;
    }
    return s;
}

}  // namespace tigris::codegen
