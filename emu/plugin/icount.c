/*
 * icount.c - exact instruction counts for the emulated boards: a QEMU TCG
 * plugin (built against qemu-plugin.h from Debian's qemu source package; no
 * glib).
 *
 * Every guest instruction adds one to a counter (an inline add, so the count
 * is exact even when a translation block is left early). Whenever the
 * instruction at the start of the harness's marker function runs
 * (TIGRIS_EMU_MARK_SYMBOL, a one-instruction function), the plugin records
 * the counter. At exit it writes
 *
 *     insns <total>
 *     marks <n>
 *     <count at mark 1>
 *     ...
 *
 * to the file named by its `out=` argument. The harness brackets the run and
 * every kernel call with marks and logs which op each bracket is, so the
 * host turns consecutive marks into per-run and per-op counts.
 *
 *   qemu-system-arm ... -plugin tigris-icount.so,out=counts.txt[,mark=NAME]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <qemu-plugin.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

/* Runs are single-vCPU (all four boards have one core). */
static uint64_t insn_count;
static uint64_t *marks;
static size_t n_marks, cap_marks;
static int marks_overflow;
static char out_path[4096];
static char mark_name[128] = "tigris_emu_mark";

/* Beyond this many marks the list stops growing (and says so). */
#define MAX_MARKS (16u * 1024u * 1024u)

static void on_mark(unsigned int vcpu, void *udata) {
    (void)vcpu;
    (void)udata;
    if (n_marks == cap_marks) {
        size_t cap = cap_marks ? cap_marks * 2 : 4096;
        uint64_t *m = cap <= MAX_MARKS ? realloc(marks, cap * sizeof *m) : NULL;
        if (!m) {
            marks_overflow = 1;
            return;
        }
        marks = m;
        cap_marks = cap;
    }
    marks[n_marks++] = insn_count;
}

static void on_tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb) {
    (void)id;
    size_t n = qemu_plugin_tb_n_insns(tb);
    for (size_t i = 0; i < n; i++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        /* The counter first, then (for the marker) the record: a mark sees
         * the count including its own instruction, consistently. */
        qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64, &insn_count, 1);
        const char *sym = qemu_plugin_insn_symbol(insn);
        if (sym && strcmp(sym, mark_name) == 0)
            qemu_plugin_register_vcpu_insn_exec_cb(insn, on_mark, QEMU_PLUGIN_CB_NO_REGS, NULL);
    }
}

static void on_exit_cb(qemu_plugin_id_t id, void *p) {
    (void)id;
    (void)p;
    FILE *f = out_path[0] ? fopen(out_path, "w") : NULL;
    if (!f) {
        char line[64];
        snprintf(line, sizeof line, "insns %llu\n", (unsigned long long)insn_count);
        qemu_plugin_outs(line);
        return;
    }
    fprintf(f, "insns %llu\nmarks %zu\n", (unsigned long long)insn_count, n_marks);
    for (size_t i = 0; i < n_marks; i++) fprintf(f, "%llu\n", (unsigned long long)marks[i]);
    if (marks_overflow) fprintf(f, "overflow\n");
    fclose(f);
    free(marks);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc, char **argv) {
    (void)info;
    for (int i = 0; i < argc; i++) {
        if (strncmp(argv[i], "out=", 4) == 0) {
            snprintf(out_path, sizeof out_path, "%s", argv[i] + 4);
        } else if (strncmp(argv[i], "mark=", 5) == 0) {
            snprintf(mark_name, sizeof mark_name, "%s", argv[i] + 5);
        } else {
            fprintf(stderr, "tigris-icount: unknown argument '%s' (out=FILE, mark=SYMBOL)\n", argv[i]);
            return -1;
        }
    }
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_tb_trans);
    qemu_plugin_register_atexit_cb(id, on_exit_cb, NULL);
    return 0;
}
