/* Why: Debian's libc++abi for wasm32 has no exception runtime; numpy's C++ is compiled with
 * -fexceptions (the wasm backend lowers invokes to plain calls, so catch blocks are dead code)
 * and a throw becomes these two calls: abort, as Emscripten does with exceptions disabled. */
#include <stdio.h>
#include <stdlib.h>

void *__cxa_allocate_exception(size_t n) {
    void *p = malloc(n);
    if (p == NULL) {
        abort();
    }
    return p;
}

void __cxa_throw(void *obj, void *tinfo, void (*dest)(void *)) {
    (void)obj;
    (void)tinfo;
    (void)dest;
    fputs("fatal: C++ exception thrown; this build has no exception support\n", stderr);
    abort();
}
