// backends.cpp - the one table that says which runtime functions a harness
// calls for each backend (docs/codegen.md "Backends").
//
// Until the backends are split by name (issue 18, part 1), our own Cortex-M
// kernels are what the runtime builds under TIGRIS_HAS_CMSIS_NN and the
// tigris_cmsis_nn_* names, and our own Xtensa kernels under TIGRIS_HAS_ESP_NN
// and tigris_esp_nn_*. So tigris-arm and cmsis-nn call the same functions
// today, as do tigris-xtensa and esp-nn; what differs is the contract the
// harness applies (an arena scratch reserve with its own macro, or none for
// ESP-NN, whose adapter takes platform memory). When the split lands, only
// the tigris-arm and tigris-xtensa rows change.
#include "codegen_internal.hpp"

namespace tigris::codegen {

namespace {

const BackendInfo kBackends[] = {
    {Backend::S8, "s8", "tigris_kernels.h", "", "tigris_dispatch_kernel_s8", "", "", "", "", "", "", false,
     "the portable int8 reference kernels (float32 operators go to the float32 reference)"},
    {Backend::TigrisArm, "tigris-arm", "tigris_kernels_cmsis_nn.h", "TIGRIS_HAS_CMSIS_NN",
     "tigris_dispatch_kernel_cmsis_nn", "tigris_cmsis_nn_prepare", "tigris_cmsis_nn_deinit", "&@N@_.mem",
     "TIGRIS_ARM_SCRATCH_BYTES", "tigris_cmsis_nn_fast_arena_required", "tigris_cmsis_nn_scratch_required", true,
     "TiGrIS's own Cortex-M int8 kernels (DSP / MVE)"},
    {Backend::CmsisNn, "cmsis-nn", "tigris_kernels_cmsis_nn.h", "TIGRIS_HAS_CMSIS_NN",
     "tigris_dispatch_kernel_cmsis_nn", "tigris_cmsis_nn_prepare", "tigris_cmsis_nn_deinit", "&@N@_.mem",
     "TIGRIS_CMSIS_NN_SCRATCH_BYTES", "tigris_cmsis_nn_fast_arena_required", "tigris_cmsis_nn_scratch_required",
     true, "the CMSIS-NN adapter (Cortex-M)"},
    {Backend::TigrisXtensa, "tigris-xtensa", "tigris_kernels_esp_nn.h", "TIGRIS_HAS_ESP_NN",
     "tigris_dispatch_kernel_esp_nn", "tigris_esp_nn_prepare", "tigris_esp_nn_deinit", "",
     "TIGRIS_XTENSA_SCRATCH_BYTES", "tigris_esp_nn_fast_arena_required", "tigris_esp_nn_scratch_required", true,
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
