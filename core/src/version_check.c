/* Placeholder translation unit removed once the loader lands. */
#include "tigris.h"
#include "tigris_executor.h"
#include "tigris_iface.h"
#include "tigris_kernels.h"
size_t tigris_executor_workspace_size(void) { return sizeof(tigris_executor_workspace_t); }
