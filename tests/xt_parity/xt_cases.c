/*
 * xt_cases.c - see xt_cases.h. Each case is one op in a plan assembled
 * directly as tigris_plan_t tables inside the caller's arena (no loader),
 * with every buffer pre-filled with the same pattern so stray writes and
 * unwritten bytes show up in the comparison.
 */
#include "xt_cases.h"

#include <string.h>

#include "tigris.h"
#include "tigris_kernels.h"
#include "tigris_kernels_tigris_xtensa.h"
#include "tigris_mem.h"

/* The backend's tuned kernels alone (xt_backend.c): 1 when they decline. */
int xt_dispatch_tuned(const tigris_plan_t *plan, const tigris_op_t *op, uint16_t op_index, tigris_mem_t *mem);

const char *const xt_kind_names[XT_K_COUNT] = {"conv", "depthwise", "fully_connected", "max_pool", "avg_pool", "add"};

/* ---- deterministic random numbers ---- */
typedef struct {
    uint32_t s;
} rng_t;

static uint32_t rnd(rng_t *r) {
    uint32_t x = r->s;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    r->s = x;
    return x;
}
/* uniform in [lo, hi] (small ranges; modulo by repeated subtraction keeps
 * lx106 free of a divide helper) */
static int32_t rr(rng_t *r, int32_t lo, int32_t hi) {
    uint32_t span = (uint32_t)(hi - lo) + 1u, v = rnd(r) >> 8;
    while (v >= span * 64u) v -= span * 64u;
    while (v >= span) v -= span;
    return lo + (int32_t)v;
}
static int chance(rng_t *r, int pct) { return rr(r, 0, 99) < pct; }

/* ---- arena bump allocation ---- */
typedef struct {
    uint8_t *p;
    uint32_t left;
} bump_t;

static void *take(bump_t *b, uint32_t n, uint32_t align) {
    uintptr_t a = ((uintptr_t)b->p + (align - 1u)) & ~(uintptr_t)(align - 1u);
    uint32_t pad = (uint32_t)(a - (uintptr_t)b->p);
    if (pad > b->left || n > b->left - pad) return NULL;
    b->p = (uint8_t *)a + n;
    b->left -= pad + n;
    return (void *)a;
}

/* ---- one-op plan ---- */
#define MAX_T 3
typedef struct {
    tigris_file_header_t header;
    tigris_tensor_t tensors[MAX_T];
    int32_t shapes[MAX_T * 4];
    uint16_t pool[4];
    tigris_op_t op;
    tigris_weight_entry_t wentries[2];
    tigris_quant_param_t quants[MAX_T];
    int32_t *qdata;
    uint32_t nq;
    uint8_t *blob;
    uint32_t blob_used, blob_cap;
    char strings[4];
    int big;
    void *ptrs[MAX_T];
    tigris_plan_t plan;
} case_plan_t;

static uint16_t add_tensor(case_plan_t *c, uint16_t i, int rank, const int32_t *dims, uint16_t q) {
    tigris_tensor_t *t = &c->tensors[i];
    memset(t, 0, sizeof *t);
    t->shape_off = (uint16_t)(i * 4);
    t->ndim = (uint8_t)rank;
    t->dtype = TIGRIS_DTYPE_INT8;
    t->quant_param_idx = q;
    uint32_t n = 1;
    for (int k = 0; k < rank; k++) {
        c->shapes[i * 4 + k] = dims[k];
        n *= (uint32_t)dims[k];
    }
    t->size_bytes = n;
    return i;
}

static uint32_t scale_bits(rng_t *r) { return ((uint32_t)rr(r, 118, 126) << 23) | (rnd(r) & 0x7FFFFFu); }

/* A quant record with nch (multiplier, shift) pairs; shift_lo..shift_hi. */
static uint16_t add_quant(case_plan_t *c, rng_t *r, int32_t zp, int nch, int32_t shift_lo, int32_t shift_hi) {
    uint16_t qi = (uint16_t)c->nq++;
    tigris_quant_param_t *q = &c->quants[qi];
    memset(q, 0, sizeof *q);
    uint32_t bits = scale_bits(r);
    memcpy(&q->scale, &bits, 4);
    q->zero_point = zp;
    q->num_channels = (uint16_t)nch;
    uint32_t off = c->header.num_quant_params; /* running qdata length */
    q->multiplier_off = (uint16_t)off;
    q->shift_off = (uint16_t)(off + (uint32_t)nch);
    for (int k = 0; k < nch; k++) {
        int32_t m = (int32_t)((1u << 30) | (rnd(r) >> 2));
        int32_t s = rr(r, shift_lo, shift_hi);
        if (chance(r, 3)) s = rr(r, -40, 3); /* extremes: all-rounding and left shifts */
        c->qdata[off + (uint32_t)k] = m;
        c->qdata[off + (uint32_t)nch + (uint32_t)k] = s;
    }
    c->header.num_quant_params = (uint16_t)(off + 2u * (uint32_t)nch); /* reset before finish */
    return qi;
}

static int add_weight(case_plan_t *c, rng_t *r, uint16_t wi, uint32_t bytes, int is_bias) {
    /* misaligned weights take the byte paths (benchmark shapes keep the
     * 16-byte alignment plans give weights) */
    uint32_t mis = !c->big && chance(r, 20) ? (uint32_t)rr(r, 1, 3) : 0u;
    uint32_t off = ((c->blob_used + 15u) & ~15u) + mis;
    if (off + bytes > c->blob_cap) return -1;
    c->wentries[wi].offset = off;
    c->wentries[wi].size_bytes = bytes;
    uint8_t *p = c->blob + off;
    for (uint32_t i = 0; i < bytes; i++) {
        if (is_bias) {
            p[i] = (uint8_t)rnd(r);
            if ((i & 3) == 3) p[i] = (uint8_t)(chance(r, 10) ? rnd(r) : ((p[i - 1] & 0x80) ? 0xFF : 0)); /* mostly small */
        } else {
            uint32_t v = rnd(r);
            p[i] = chance(r, 5) ? (uint8_t)(chance(r, 50) ? 0x80 : 0x7F) : (uint8_t)v;
        }
    }
    c->blob_used = off + bytes;
    return 0;
}

static void fill_input(rng_t *r, int8_t *x, uint32_t n) {
    int mode = rr(r, 0, 3);
    for (uint32_t i = 0; i < n; i++) {
        int32_t v = (int32_t)(int8_t)rnd(r);
        if (mode == 1) v = (i & 1) ? 127 : -128;
        if (mode == 2 && chance(r, 30)) v = chance(r, 50) ? 127 : -128;
        x[i] = (int8_t)v;
    }
}

static int32_t rand_zp(rng_t *r) {
    if (chance(r, 15)) return chance(r, 50) ? -128 : 127;
    return rr(r, -128, 127);
}

static int32_t out_dim(int32_t in, int32_t k, int32_t s, int32_t d, int32_t p0, int32_t p1) {
    int32_t span = in + p0 + p1 - d * (k - 1) - 1;
    if (span < 0) return 0;
    int32_t o = 0;
    while (o * s <= span) o++; /* span / s + 1 without a divide */
    return o;
}

static void set_act(rng_t *r, tigris_op_t *op) {
    op->act_min = -128;
    op->act_max = 127;
    if (chance(r, 30)) {
        int32_t a = rr(r, -128, 127), b = rr(r, -128, 127);
        op->act_min = (int8_t)(a < b ? a : b);
        op->act_max = (int8_t)(a < b ? b : a);
        op->fused_act = TIGRIS_ACT_RELU;
    }
}

/* A band or tile the kernels accept, inside the tensors' extents. */
static void random_tile(rng_t *r, tigris_tile_ctx_t *t, int32_t ih, int32_t iw, int32_t oh, int32_t ow, int kind) {
    memset(t, 0, sizeof *t);
    t->active = 1;
    if (kind == XT_K_FC) {
        t->row_tiled = TIGRIS_ROW_MODE_ROWS;
        t->out_h = rr(r, 1, oh);
        return;
    }
    if (kind == XT_K_ADD) {
        t->out_row_start = rr(r, 0, oh - 1);
        t->out_h = rr(r, 0, oh - t->out_row_start);
        t->in_row_start = t->out_row_start;
        return;
    }
    t->in_h = rr(r, 1, ih);
    t->out_row_start = rr(r, 0, oh - 1);
    t->out_h = rr(r, 0, oh - t->out_row_start);
    t->in_row_start = rr(r, 0, 4);
    t->pad_top = rr(r, 0, 3);
    if (chance(r, 40)) {
        t->width_tiled = 1;
        t->in_w = rr(r, 1, iw);
        t->out_w = rr(r, 0, ow);
        t->pad_left = rr(r, 0, 2);
    }
}

int xt_case_run(int kind, uint32_t seed, int banded, int big, void *arena, uint32_t arena_size, xt_counter_fn counter,
                xt_case_result_t *res) {
    rng_t rg = {seed * 2654435761u + (uint32_t)kind * 97u + 12345u};
    rng_t *r = &rg;
    if (!rg.s) rg.s = 1;
    for (int i = 0; i < 4; i++) rnd(r);
    memset(res, 0, sizeof *res);
    res->kind = kind;
    res->seed = seed;
    res->banded = banded;
    bump_t b = {(uint8_t *)arena, arena_size};
    case_plan_t *c = (case_plan_t *)take(&b, sizeof(case_plan_t), 16);
    if (!c) return -1;
    memset(c, 0, sizeof *c);
    c->big = big;
    c->qdata = (int32_t *)take(&b, 4096 * 4, 16);
    c->blob_cap = 70000u;
    c->blob = (uint8_t *)take(&b, c->blob_cap, 16);
    if (!c->qdata || !c->blob) return -1;

    tigris_op_t *op = &c->op;
    op->weight_idx = TIGRIS_NONE16;
    op->bias_idx = TIGRIS_NONE16;
    op->num_inputs = 1;
    op->num_outputs = 1;
    op->act_min = -128;
    op->act_max = 127;
    int32_t xd[4], yd[4], bd[4];
    int xrank = 4, yrank = 4, brank = 0;
    int32_t zp_in = rand_zp(r), zp_out = rand_zp(r);
    uint16_t qin = add_quant(c, r, zp_in, 1, -8, 0);
    int nw = 0;
    int32_t ih = 1, iw = 1, oh = 1, ow = 1;

    if (kind == XT_K_CONV || kind == XT_K_DW || kind == XT_K_MAXPOOL || kind == XT_K_AVGPOOL) {
        int32_t n = chance(r, 10) ? 2 : 1, ic, oc, kh, kw, sh, sw, dh = 1, dw = 1, pt, pb, pl, pr;
        ih = rr(r, 1, 11);
        iw = rr(r, 1, 11);
        ic = chance(r, 40) ? 4 * rr(r, 1, 5) : rr(r, 1, 13);
        int ks[5] = {1, 2, 3, 3, 5};
        kh = ks[rr(r, 0, 4)];
        kw = chance(r, 70) ? kh : ks[rr(r, 0, 4)];
        sh = rr(r, 1, 3);
        sw = chance(r, 70) ? sh : rr(r, 1, 3);
        if (chance(r, 20)) {
            dh = rr(r, 1, 3);
            dw = rr(r, 1, 3);
        }
        pt = rr(r, 0, 2);
        pb = rr(r, 0, 2);
        pl = rr(r, 0, 2);
        pr = rr(r, 0, 2);
        if (chance(r, 35)) pt = pb = pl = pr = 0;
        if (big) {
            n = 1;
            ih = iw = 16;
            ic = kind == XT_K_DW ? 32 : 16;
            kh = kw = seed & 1 ? 1 : 3;
            if (kind == XT_K_MAXPOOL || kind == XT_K_AVGPOOL) kh = kw = 2 + (int32_t)(seed & 1);
            sh = sw = kind == XT_K_MAXPOOL || kind == XT_K_AVGPOOL ? 2 : 1;
            dh = dw = 1;
            pt = pb = pl = pr = kh == 3 && sh == 1 ? 1 : 0;
        }
        oc = ic;
        if (kind == XT_K_CONV) oc = big ? (seed & 1 ? 32 : 16) : rr(r, 1, 13);
        if (kind == XT_K_DW && !big && chance(r, 30)) oc = ic * rr(r, 2, 3);
        oh = out_dim(ih, kh, sh, dh, pt, pb);
        ow = out_dim(iw, kw, sw, dw, pl, pr);
        if (oh < 1 || ow < 1) {
            pt = pb = pl = pr = kh + kw; /* large padding always gives an output */
            oh = out_dim(ih, kh, sh, dh, pt, pb);
            ow = out_dim(iw, kw, sw, dw, pl, pr);
        }
        xd[0] = yd[0] = n;
        xd[1] = ih;
        xd[2] = iw;
        xd[3] = ic;
        yd[1] = oh;
        yd[2] = ow;
        yd[3] = oc;
        op->spatial.kernel_h = (uint8_t)kh;
        op->spatial.kernel_w = (uint8_t)kw;
        op->spatial.stride_h = (uint8_t)sh;
        op->spatial.stride_w = (uint8_t)sw;
        op->spatial.dilation_h = (uint16_t)dh;
        op->spatial.dilation_w = (uint16_t)dw;
        op->spatial.pad_top = (uint16_t)pt;
        op->spatial.pad_bottom = (uint16_t)pb;
        op->spatial.pad_left = (uint16_t)pl;
        op->spatial.pad_right = (uint16_t)pr;
        op->spatial.group = 1;
        if (kind == XT_K_CONV || kind == XT_K_DW) {
            op->op_type = kind == XT_K_CONV ? TIGRIS_OP_CONV : TIGRIS_OP_DEPTHWISE;
            uint32_t wbytes = (uint32_t)(kh * kw * oc * (kind == XT_K_CONV ? ic : 1));
            if (add_weight(c, r, 0, wbytes, 0)) return -1;
            op->weight_idx = 0;
            nw = 1;
            if (chance(r, 75)) {
                if (add_weight(c, r, 1, (uint32_t)oc * 4u, 1)) return -1;
                op->bias_idx = 1;
                nw = 2;
            }
            set_act(r, op);
            int pc = chance(r, 50);
            uint16_t qo = add_quant(c, r, zp_out, pc ? oc : 1, -11, -5);
            add_tensor(c, 0, 4, xd, qin);
            add_tensor(c, 1, 4, yd, qo);
        } else {
            op->op_type = kind == XT_K_MAXPOOL ? TIGRIS_OP_MAX_POOL : TIGRIS_OP_AVG_POOL;
            set_act(r, op);
            uint16_t qo = big || chance(r, 85) ? qin : add_quant(c, r, zp_out, 1, -8, 0);
            add_tensor(c, 0, 4, xd, qin);
            add_tensor(c, 1, 4, yd, qo);
        }
        c->pool[0] = 0;
        c->pool[1] = 1;
        op->inputs_off = 0;
        op->outputs_off = 1;
    } else if (kind == XT_K_FC) {
        int32_t nb = rr(r, 1, 3), ic = rr(r, 1, 70), oc = rr(r, 1, 40);
        if (big) {
            nb = seed & 1 ? 1 : 2; /* one row, and a pair of rows */
            ic = 256;
            oc = 64;
        }
        xrank = 2;
        xd[0] = nb;
        xd[1] = ic;
        yrank = 2;
        yd[0] = nb;
        yd[1] = oc;
        oh = nb;
        op->op_type = TIGRIS_OP_FULLY_CONN;
        if (add_weight(c, r, 0, (uint32_t)(ic * oc), 0)) return -1;
        op->weight_idx = 0;
        nw = 1;
        if (chance(r, 75)) {
            if (add_weight(c, r, 1, (uint32_t)oc * 4u, 1)) return -1;
            op->bias_idx = 1;
            nw = 2;
        }
        set_act(r, op);
        int pc = chance(r, 40);
        uint16_t qo = add_quant(c, r, zp_out, pc ? oc : 1, -11, -5);
        add_tensor(c, 0, xrank, xd, qin);
        add_tensor(c, 1, yrank, yd, qo);
        c->pool[0] = 0;
        c->pool[1] = 1;
        op->inputs_off = 0;
        op->outputs_off = 1;
    } else { /* ADD */
        int32_t h = rr(r, 1, 9), w = rr(r, 1, 9), ch = rr(r, 1, 12);
        if (big) {
            h = w = 16;
            ch = 16;
        }
        xd[0] = 1;
        xd[1] = h;
        xd[2] = w;
        xd[3] = ch;
        memcpy(yd, xd, sizeof yd);
        oh = h;
        int shape = big ? (int)(~seed & 1) : rr(r, 0, 2); /* big: dense, then per-channel broadcast */
        if (shape == 0) {
            brank = 4;
            memcpy(bd, xd, sizeof bd);
        } else if (shape == 1) {
            brank = 1;
            bd[0] = ch; /* periodic: one value per channel */
        } else {
            brank = 3;
            bd[0] = 1;
            bd[1] = w;
            bd[2] = ch; /* periodic over rows */
        }
        op->op_type = TIGRIS_OP_ADD;
        op->num_inputs = 2;
        if (chance(r, 30)) set_act(r, op);
        uint16_t qb = add_quant(c, r, rand_zp(r), 1, -8, 0);
        uint16_t qo = add_quant(c, r, zp_out, 1, -8, 0);
        add_tensor(c, 0, 4, xd, qin);
        add_tensor(c, 1, brank, bd, qb);
        add_tensor(c, 2, 4, yd, qo);
        c->pool[0] = 0;
        c->pool[1] = 1;
        c->pool[2] = 2;
        op->inputs_off = 0;
        op->outputs_off = 2;
    }
    uint16_t nt = kind == XT_K_ADD ? 3 : 2;
    uint16_t out_t = (uint16_t)(nt - 1);

    /* plan tables */
    c->header.num_tensors = nt;
    c->header.num_ops = 1;
    c->header.num_weights = (uint16_t)nw;
    c->header.num_quant_params = (uint16_t)c->nq;
    memset(&c->plan, 0, sizeof c->plan);
    c->plan.header = &c->header;
    c->plan.tensors = c->tensors;
    c->plan.ops = &c->op;
    c->plan.index_pool = c->pool;
    c->plan.shape_pool = c->shapes;
    c->plan.strings = c->strings;
    if (nw) {
        c->plan.weight_entries = c->wentries;
        c->plan.weight_blob = c->blob;
    }
    c->plan.quant_params = c->quants;
    c->plan.quant_data = c->qdata;
    c->plan.num_quant_params = (uint16_t)c->nq;

    /* buffers: inputs, and the output twice (reference, accelerated) */
    uint8_t *bufs[MAX_T];
    for (uint16_t i = 0; i < nt; i++) {
        uint32_t misalign = (i == 0 && !big && chance(r, 20)) ? 1u : 0u;
        uint8_t *p = (uint8_t *)take(&b, c->tensors[i].size_bytes + 32u, 16);
        if (!p) return -1;
        bufs[i] = p + misalign;
        if (i != out_t) fill_input(r, (int8_t *)bufs[i], c->tensors[i].size_bytes);
    }
    uint32_t ob = c->tensors[out_t].size_bytes;
    uint8_t *yacc = (uint8_t *)take(&b, ob + 32u, 16);
    uint32_t scratch = tigris_xtensa_scratch_required(&c->plan);
    if (scratch == UINT32_MAX) return -1;
    uint8_t *fast = (uint8_t *)take(&b, scratch + 64u, 16);
    if (!yacc || !fast) return -1;
    for (uint32_t i = 0; i < ob + 32u; i++) bufs[out_t][i] = yacc[i] = (uint8_t)(0xA5 ^ i);
    res->out_bytes = ob;

    tigris_mem_t mem;
    memset(&mem, 0, sizeof mem);
    for (uint16_t i = 0; i < nt; i++) c->ptrs[i] = bufs[i];
    mem.tensor_ptrs = c->ptrs;
    mem.num_tensors = nt;
    if (banded) random_tile(r, &mem.tile, ih, iw, oh, ow, kind);

    uint32_t t0 = counter ? counter() : 0;
    res->rc_ref = tigris_dispatch_kernel_s8(&c->plan, op, 0, &mem, NULL);
    uint32_t t1 = counter ? counter() : 0;

    c->ptrs[out_t] = yacc;
    mem.fast_base = fast;
    mem.fast_size = scratch + 64u;
    if (tigris_xtensa_prepare(&c->plan, &mem)) return -1;
    uint32_t t2 = counter ? counter() : 0;
    res->rc_acc = tigris_dispatch_kernel_tigris_xtensa(&c->plan, op, 0, &mem, NULL);
    uint32_t t3 = counter ? counter() : 0;
    /* whether the tuned kernel itself takes it (it writes the same bytes again) */
    res->tuned = xt_dispatch_tuned(&c->plan, op, 0, &mem) == 0;
    tigris_xtensa_deinit();
    res->cost_ref = t1 - t0;
    res->cost_acc = t3 - t2;

    for (uint32_t i = 0; i < ob + 32u; i++)
        if (bufs[out_t][i] != yacc[i]) {
            res->mismatch = i + 1u;
            break;
        }
    /* a short description without snprintf (none on the bare image) */
    char *d = res->desc;
    const char *kn = xt_kind_names[kind];
    while (*kn) *d++ = *kn++;
    *d++ = ' ';
    int32_t vals[8] = {xd[0], ih, iw, kind == XT_K_FC ? xd[1] : xd[3], oh, ow, yd[yrank - 1], op->spatial.kernel_h};
    for (int k = 0; k < 8; k++) {
        int32_t v = vals[k];
        char tmp[12];
        int m = 0;
        if (v == 0) tmp[m++] = '0';
        while (v > 0 && m < 11) {
            int32_t q = 0;
            while ((q + 1) * 10 <= v) q++;
            tmp[m++] = (char)('0' + (v - q * 10));
            v = q;
        }
        while (m) *d++ = tmp[--m];
        *d++ = k == 7 ? '\0' : (k == 3 ? '>' : ',');
    }
    (void)xrank;
    return 0;
}
