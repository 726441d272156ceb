/* errors.c - text for every tigris_error_t. */
#include "tigris.h"

const char *tigris_error_str(tigris_error_t err) {
    switch (err) {
    case TIGRIS_OK: return "ok";
    case TIGRIS_ERR_NULL: return "null pointer argument";
    case TIGRIS_ERR_TOO_SMALL: return "buffer smaller than the plan header";
    case TIGRIS_ERR_BAD_MAGIC: return "not a TGRS plan (bad magic)";
    case TIGRIS_ERR_BAD_VERSION: return "unsupported plan schema version";
    case TIGRIS_ERR_BAD_SIZE: return "file_size does not match the buffer length";
    case TIGRIS_ERR_BAD_SECTION: return "malformed section or out-of-bounds offset";
    case TIGRIS_ERR_MISSING_SEC: return "required section not found";
    case TIGRIS_ERR_ENDIAN: return "platform is not little-endian";
    case TIGRIS_ERR_PLAN_LIMITS: return "plan exceeds the limits this runtime was built with";
    case TIGRIS_ERR_BAD_TENSOR: return "tensor metadata is not executable";
    case TIGRIS_ERR_BAD_OPERATOR: return "operator contract is not executable";
    case TIGRIS_ERR_BAD_INTERFACE: return "declared model interface is not convertible";
    case TIGRIS_ERR_KERNEL_DISABLED: return "build leaves out a kernel family the plan uses";
    case TIGRIS_ERR_MEM: return "arena cannot hold the tensor";
    case TIGRIS_ERR_TENSOR_SLOTS: return "memory manager has fewer tensor slots than the plan";
    case TIGRIS_ERR_TILE_FACTS: return "tile record's stated tiling disagrees with the plan";
    case TIGRIS_ERR_CHAIN_BAND: return "chained stage reads a tensor outside its band; recompile the model";
    case TIGRIS_ERR_TILE_BAND: return "tiled stage reads or writes a tensor outside its band; recompile the model";
    }
    return "unknown error";
}
