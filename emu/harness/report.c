/* report.c - buffered text output over the board's console. */
#include "report.h"

#include "board.h"

static char rep_buf[512];
static uint32_t rep_len;

void rep_flush(void) {
    if (rep_len) emu_console_write(rep_buf, rep_len);
    rep_len = 0;
}

void rep_char(char c) {
    if (rep_len == sizeof rep_buf) rep_flush();
    rep_buf[rep_len++] = c;
}

void rep_str(const char *s) {
    while (*s) rep_char(*s++);
}

void rep_u32(uint32_t v) {
    /* Division by 10 through a reciprocal multiply is left to the compiler;
     * on lx106 it becomes __udivsi3, which libgcc_fill.c supplies. */
    char d[10];
    int n = 0;
    do {
        d[n++] = (char)('0' + v % 10u);
        v /= 10u;
    } while (v);
    while (n) rep_char(d[--n]);
}

void rep_i32(int32_t v) {
    if (v < 0) {
        rep_char('-');
        rep_u32(0u - (uint32_t)v);
    } else {
        rep_u32((uint32_t)v);
    }
}

static const char hexdig[] = "0123456789abcdef";

void rep_hex32(uint32_t v) {
    rep_str("0x");
    for (int s = 28; s >= 0; s -= 4) rep_char(hexdig[(v >> s) & 0xFu]);
}

void rep_hex_bytes(const uint8_t *p, uint32_t n) {
    for (uint32_t i = 0; i < n; i++) {
        rep_char(hexdig[p[i] >> 4]);
        rep_char(hexdig[p[i] & 0xFu]);
        if ((i & 63u) == 63u || i + 1 == n) rep_char('\n');
    }
}

void rep_kv(const char *key, uint32_t value) {
    rep_char('@');
    rep_str(key);
    rep_char(' ');
    rep_u32(value);
    rep_char('\n');
}
