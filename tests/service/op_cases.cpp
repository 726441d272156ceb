// op_cases.cpp - the registry behind TIGRIS_OP_CASE.
#include "op_cases.h"

namespace tigris_test {

static std::vector<OpCaseFn> &registry() {
    static std::vector<OpCaseFn> r;  // function-local: safe from static init order
    return r;
}

int register_op_case(OpCaseFn fn) {
    registry().push_back(fn);
    return 0;
}

const std::vector<OpCaseFn> &op_cases() { return registry(); }

}  // namespace tigris_test
