/* sandbox-wasm: <setjmp.h> for the scientific stack on wasm32-wasi (scripts/cpython_wasi/
 * sci_stack.py puts this directory first on the include path of scipy's build).
 *
 * Why: WASI has setjmp/longjmp only with wasm exception handling, which wasmtime implements
 * in its standard form and clang 19 emits only in the legacy one. scipy uses them to carry a
 * Python exception raised inside a callback (quad's integrand, a root or SuperLU callback)
 * back through C: here setjmp returns 0 and longjmp ends the run with a message on stderr
 * (the sandbox reports the run as crashed; the host is not affected). */
#ifndef SANDBOX_WASI_SETJMP_H
#define SANDBOX_WASI_SETJMP_H

#include <stdio.h>
#include <stdlib.h>

typedef struct { int unused; } jmp_buf[1];
typedef jmp_buf sigjmp_buf;

static inline __attribute__((noreturn)) void sandbox_wasi_longjmp(void) {
    fputs("sandbox-wasm: a Python exception inside a compiled callback cannot be carried "
          "back on WASI (no setjmp/longjmp); the run ends here\n", stderr);
    abort();
}

#define setjmp(env) 0
#define _setjmp(env) 0
#define sigsetjmp(env, savemask) 0
#define longjmp(env, value) sandbox_wasi_longjmp()
#define _longjmp(env, value) sandbox_wasi_longjmp()
#define siglongjmp(env, value) sandbox_wasi_longjmp()

#endif
