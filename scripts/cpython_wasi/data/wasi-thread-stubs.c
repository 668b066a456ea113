/* sandbox-wasm: two thread/process runtime functions that wasm32-wasi's libc and libc++abi
 * lack, for a guest with one thread and no fork.
 *
 * __cxa_thread_atexit: the C++ front end calls it to register the destructor of a
 * `thread_local` object (scipy's _uarray dispatch has some). The guest's one thread ends with
 * the instance: like `static` objects, these are destroyed at exit.
 *
 * pthread_atfork: ducc0 (scipy.fft) registers handlers that rebuild its thread pool in a
 * forked child. There is no fork on WASI, so the handlers can never be due: registering
 * them succeeds and does nothing. */
int __cxa_atexit(void (*func)(void *), void *arg, void *dso_handle);

int __cxa_thread_atexit(void (*func)(void *), void *arg, void *dso_handle) {
    return __cxa_atexit(func, arg, dso_handle);
}

int pthread_atfork(void (*prepare)(void), void (*parent)(void), void (*child)(void)) {
    (void)prepare;
    (void)parent;
    (void)child;
    return 0;
}
