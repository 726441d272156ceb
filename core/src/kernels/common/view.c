/*
 * view.c - a checked view of one tensor record: dims from the shape pool,
 * the element count against the stored byte size.
 */
#include "../kernel_common.h"

/* Fill *v for tensor idx; 0 on success, -1 when the record is inconsistent
 * (rank above TK_MAX_RANK, a non-positive dim, a count that overflows, or a
 * byte size smaller than the elements need). */
int tk_view(const tigris_plan_t *plan, int32_t idx, tk_view_t *v) {
    if (idx < 0) return -1;
    const tigris_tensor_t *t = tk_tensor(plan, (uint16_t)idx);
    if (!t || !plan->shape_pool || t->ndim > TK_MAX_RANK) return -1;
    v->t = t;
    v->rank = t->ndim;
    v->esize = tigris_dtype_size(t->dtype);
    if (v->esize == 0) return -1;
    const int32_t *s = tigris_tensor_shape(plan, t);
    uint64_t n = 1;
    for (int32_t i = 0; i < v->rank; i++) {
        if (s[i] <= 0) return -1;
        v->dim[i] = s[i];
        n *= (uint64_t)s[i];
        if (n > 0x7FFFFFFFu) return -1;
    }
    if (n * v->esize > t->size_bytes) return -1;
    v->numel = (uint32_t)n;
    return 0;
}
