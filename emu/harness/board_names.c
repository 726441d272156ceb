/* board_names.c - the board and CPU names the build gives this image. */
#include "board.h"

const char emu_board_name[] = TIGRIS_EMU_BOARD;
const char emu_cpu_name[] = TIGRIS_EMU_CPU;
