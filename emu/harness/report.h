/*
 * report.h - the harness's text report on the console, buffered so that a
 * semihosting trap carries hundreds of bytes instead of one.
 *
 * Every report line starts with '@' and a keyword (docs/emu.md lists them);
 * model outputs follow their "@output" line as hex, 64 bytes per line.
 */
#ifndef TIGRIS_EMU_REPORT_H
#define TIGRIS_EMU_REPORT_H

#include <stdint.h>

void rep_str(const char *s);
void rep_u32(uint32_t v);
void rep_i32(int32_t v);
void rep_hex32(uint32_t v); /* 0x%08x */
void rep_char(char c);
void rep_hex_bytes(const uint8_t *p, uint32_t n); /* lines of 64 bytes */
void rep_flush(void);

/* "@key value\n" */
void rep_kv(const char *key, uint32_t value);

#endif /* TIGRIS_EMU_REPORT_H */
