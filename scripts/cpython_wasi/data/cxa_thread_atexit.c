/* sandbox-wasm: __cxa_thread_atexit for wasm32-wasi, which has neither threads nor this
 * function in wasi-libc/libc++abi. The C++ front end calls it to register the destructor of a
 * `thread_local` object (scipy's _uarray dispatch has some). The guest has one thread, whose
 * end is the end of the instance: like `static` objects, these are destroyed at exit. */
int __cxa_atexit(void (*func)(void *), void *arg, void *dso_handle);

int __cxa_thread_atexit(void (*func)(void *), void *arg, void *dso_handle) {
    return __cxa_atexit(func, arg, dso_handle);
}
