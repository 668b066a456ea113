/* Entry points of the sandbox-wasm CPython for WASI (linked into python-sandbox.wasm, a
 * reactor module, by scripts/cpython_wasi/build.py; no binary patching).
 *
 *   sandbox_init    Wizer's init function. Runs once at build time with ONE preopen, /init,
 *                   holding stdlib.blob (every stdlib module, precompiled), stdlib_finder.py
 *                   and guest.py (sandbox_wasm/_guest.py). It initialises the interpreter
 *                   isolated (no site, no environment, unbuffered stdio, hash seed 0), with
 *                   an import system that never touches a filesystem: the core is initialised
 *                   first, the in-memory stdlib finder is installed, then the main phase
 *                   (encodings, stdio) imports from it. sys.argv is ["python",
 *                   "--snapshot-init"] and the guest bootstrap runs as __main__ as
 *                   `python -c <source> --snapshot-init` would run it. Finally the preopen
 *                   table is reset, so the snapshot holds no trace of /init.
 *   sandbox_resume  The entry of every run of the snapshot: calls serve() of __main__ with
 *                   the request the host put in `sandbox_request` (or none: serve() reads it
 *                   from stdin) and returns serve()'s result, the request's exit status,
 *                   when serve() returns (the instance is then at rest: every C frame has
 *                   returned, so __stack_pointer is back where it started); proc_exit(1) if
 *                   it raises. A host that sees the entry return knows the guest came back
 *                   to rest, and its status: no guest code can make a trap or os._exit look
 *                   like it.
 *   sandbox_request A data export (wasm-ld exports its address as a global): where the host
 *                   writes the next run's request before entering sandbox_resume, which
 *                   saves the run the host call of reading it from stdin.
 *   sandbox_answer  A data export like it: where the host leaves a tool's answer while it
 *                   handles the tool's request, taken by the guest's stub through the
 *                   built-in module _sandbox_entry (take_answer()), which saves each tool
 *                   call the host call of reading its answer.
 *
 * While sandbox_init runs, random_get and clock_time_get are answered deterministically
 * (the link wraps wasi-libc's __wasi_random_get / __wasi_clock_time_get), so two builds of
 * the snapshot from the same inputs are byte-identical. At run time both go to the host.
 */
#define PY_SSIZE_T_CLEAN
#include "Python.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wasi/api.h>

#define INIT_DIR "/init"

/* CPython 3.13 allows 5000 levels of C recursion on WASI ("based on wasmtime 16", i.e. tests
 * run with --wasm max-wasm-stack=8388608). sandbox-wasm gives wasmtime a max_wasm_stack of
 * 1.5 MiB of native stack (sandbox_wasm/_engine.py; 512 KiB is wasmtime's default, 2 MiB its
 * async stack, which max_wasm_stack must stay below): at 512 KiB a __getattr__ recursion
 * exhausted the native stack after ~400 levels, a wasm trap instead of a RecursionError, and
 * a budget of 450 made it raise RecursionError first with ~45% margin (LOG.md). This budget
 * keeps that margin at 1.5 MiB (lru_cache recursion ~3 units per level: ~440 levels).
 * Change it with max_wasm_stack. */
#ifndef SANDBOX_C_RECURSION_LIMIT
#define SANDBOX_C_RECURSION_LIMIT 1350
#endif

/* 1 until sandbox_init returns: also covers the constructors that run before it (wasi-libc's
 * clock() start time), since the flag is static data of the module. */
static int sandbox_in_init = 1;
static uint64_t det_random_state = 0x5A17B0B5DEADBEEFull;
static __wasi_timestamp_t det_clock = 0;

__wasi_errno_t __real___wasi_random_get(uint8_t *buf, __wasi_size_t buf_len);
__wasi_errno_t __real___wasi_clock_time_get(__wasi_clockid_t id, __wasi_timestamp_t precision,
                                            __wasi_timestamp_t *time);

__wasi_errno_t __wrap___wasi_random_get(uint8_t *buf, __wasi_size_t buf_len) {
    if (!sandbox_in_init) {
        return __real___wasi_random_get(buf, buf_len);
    }
    for (__wasi_size_t i = 0; i < buf_len; i++) { /* xorshift64* */
        det_random_state ^= det_random_state >> 12;
        det_random_state ^= det_random_state << 25;
        det_random_state ^= det_random_state >> 27;
        buf[i] = (uint8_t)((det_random_state * 0x2545F4914F6CDD1Dull) >> 56);
    }
    return 0;
}

__wasi_errno_t __wrap___wasi_clock_time_get(__wasi_clockid_t id, __wasi_timestamp_t precision,
                                            __wasi_timestamp_t *time) {
    if (!sandbox_in_init) {
        return __real___wasi_clock_time_get(id, precision, time);
    }
    /* A clock that starts at 0 and advances 1 us per reading. The monotonic clock of a
     * wasmtime instance also starts near 0, so clock()'s start time stays sensible. */
    det_clock += 1000;
    *time = det_clock;
    return 0;
}

/* Constructors (wasi-libc's among them) run from the reactor's _initialize. Whether the
 * Wizer driver calls _initialize before the init function or not, they run exactly once. */
void __wasm_call_ctors(void);
static int sandbox_ctors_ran = 0;
__attribute__((constructor)) static void sandbox_mark_ctors(void) { sandbox_ctors_ran = 1; }

/* wasi-libc: forget the preopened directories (of the init run). */
void __wasilibc_reset_preopens(void);

/* wasi-libc's working directory, a path string that relative paths are resolved against
 * (chdir() stats the directory through the preopens, then sets it). The snapshot starts in
 * the guest's working directory (WORKING_DIRECTORY of sandbox_wasm/_guest/bootstrap.py), so
 * that a run need not chdir there: that took a stat and the scan of the preopens, four host
 * calls, in every run, file operations or not. */
extern char *__wasilibc_cwd;
#define SANDBOX_WORKING_DIRECTORY "/output"

static void fail(const char *what) {
    fprintf(stderr, "sandbox_init: %s\n", what);
    fflush(stderr);
    __builtin_trap();
}

static void check(PyStatus status, const char *what) {
    if (PyStatus_Exception(status)) {
        fprintf(stderr, "sandbox_init: %s: %s%s%s\n", what,
                status.func ? status.func : "", status.func ? ": " : "",
                status.err_msg ? status.err_msg : "(no message)");
        fflush(stderr);
        __builtin_trap();
    }
}

/* The whole file in one exact-size allocation (no realloc garbage left in the snapshot). */
static char *read_file(const char *path, size_t *size_out) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        fprintf(stderr, "sandbox_init: cannot open %s\n", path);
        fail("missing init file");
    }
    if (fseek(f, 0, SEEK_END) != 0) {
        fail("cannot seek in an init file");
    }
    long size = ftell(f);
    if (size < 0 || fseek(f, 0, SEEK_SET) != 0) {
        fail("cannot size an init file");
    }
    char *buf = malloc((size_t)size + 1);
    if (buf == NULL) {
        fail("out of memory reading an init file");
    }
    if (fread(buf, 1, (size_t)size, f) != (size_t)size) {
        fail("short read on an init file");
    }
    fclose(f);
    buf[size] = '\0';
    if (size_out != NULL) {
        *size_out = (size_t)size;
    }
    return buf;
}

static void free_zeroed(char *buf) {
    /* Freed memory is not zeroed by malloc: zero it so that it adds nothing to the
     * snapshot's data segments. */
    memset(buf, 0, strlen(buf));
    free(buf);
}

/* Exec stdlib_finder.py as the module _sandbox_stdlib, then call its install(blob) with a
 * read-only memoryview of stdlib.blob. The blob stays in this one allocation for the life
 * of the interpreter (the finder decompresses modules straight out of it): no copy. */
static void install_stdlib_finder(void) {
    char *source = read_file(INIT_DIR "/stdlib_finder.py", NULL);
    size_t blob_size = 0;
    char *blob = read_file(INIT_DIR "/stdlib.blob", &blob_size);

    PyObject *module = PyImport_AddModule("_sandbox_stdlib"); /* borrowed */
    if (module == NULL) {
        PyErr_Print();
        fail("cannot create _sandbox_stdlib");
    }
    PyObject *globals = PyModule_GetDict(module);
    if (PyDict_SetItemString(globals, "__builtins__", PyEval_GetBuiltins()) < 0) {
        PyErr_Print();
        fail("cannot set __builtins__");
    }
    PyObject *code = Py_CompileString(source, "<sandbox_stdlib>", Py_file_input);
    free_zeroed(source);
    if (code == NULL) {
        PyErr_Print();
        fail("stdlib_finder.py does not compile");
    }
    PyObject *result = PyEval_EvalCode(code, globals, globals);
    Py_DECREF(code);
    if (result == NULL) {
        PyErr_Print();
        fail("stdlib_finder.py raised");
    }
    Py_DECREF(result);
    PyObject *view = PyMemoryView_FromMemory(blob, (Py_ssize_t)blob_size, PyBUF_READ);
    if (view == NULL) {
        PyErr_Print();
        fail("cannot wrap the stdlib blob");
    }
    result = PyObject_CallMethod(module, "install", "O", view);
    Py_DECREF(view);
    if (result == NULL) {
        PyErr_Print();
        fail("_sandbox_stdlib.install() raised");
    }
    Py_DECREF(result);
}

/* Every object alive at the end of the init (the interpreter's, the preloaded stdlib's, the
 * bootstrap's) is made immortal, so that a run's reference counting on them writes nothing:
 * their pages stay shared with the snapshot instead of being copied on first write (a run
 * pays ~3 us per page it dirties). Immortal objects are never freed; a run's instance is
 * thrown away after it, so what a run unlinks from them costs nothing. The walk starts from
 * every object the GC tracks and follows references into untracked objects (strings,
 * numbers, tuples, code objects and what they hold). */
static PyObject **walk_stack = NULL;
static size_t walk_len = 0, walk_cap = 0;

static int walk_push(PyObject *op, void *unused) {
    (void)unused;
    if (op == NULL || _Py_IsImmortal(op)) {
        return 0;
    }
    if (walk_len == walk_cap) {
        walk_cap = walk_cap ? walk_cap * 2 : 1 << 16;
        walk_stack = realloc(walk_stack, walk_cap * sizeof(PyObject *));
        if (walk_stack == NULL) {
            fail("out of memory while making the heap immortal");
        }
    }
    walk_stack[walk_len++] = op;
    return 0;
}

static size_t immortalize_heap(void) {
    PyObject *gc = PyImport_ImportModule("gc");
    PyObject *thawed = gc ? PyObject_CallMethod(gc, "unfreeze", NULL) : NULL;
    PyObject *objects = thawed ? PyObject_CallMethod(gc, "get_objects", NULL) : NULL;
    if (objects == NULL || !PyList_Check(objects)) {
        PyErr_Print();
        fail("cannot list the heap (gc.get_objects)");
    }
    Py_DECREF(thawed);
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(objects); i++) {
        walk_push(PyList_GET_ITEM(objects, i), NULL);
    }
    size_t count = 0;
    while (walk_len > 0) {
        PyObject *op = walk_stack[--walk_len];
        if (_Py_IsImmortal(op)) {
            continue;
        }
        op->ob_refcnt = _Py_IMMORTAL_REFCNT;
        count++;
        if (PyCode_Check(op)) {
            PyCodeObject *co = (PyCodeObject *)op;
            walk_push(co->co_consts, NULL);
            walk_push(co->co_names, NULL);
            walk_push(co->co_localsplusnames, NULL);
            walk_push(co->co_localspluskinds, NULL);
            walk_push(co->co_filename, NULL);
            walk_push(co->co_name, NULL);
            walk_push(co->co_qualname, NULL);
            walk_push(co->co_linetable, NULL);
            walk_push(co->co_exceptiontable, NULL);
        } else if (PyObject_IS_GC(op) && Py_TYPE(op)->tp_traverse != NULL) {
            Py_TYPE(op)->tp_traverse(op, walk_push, NULL);
        }
    }
    free(walk_stack);
    walk_stack = NULL;
    walk_cap = 0;
    Py_DECREF(objects); /* its items are immortal now: nothing else is released */
    PyObject *frozen = PyObject_CallMethod(gc, "freeze", NULL);
    if (frozen == NULL) {
        PyErr_Print();
        fail("gc.freeze() raised");
    }
    Py_DECREF(frozen);
    Py_DECREF(gc);
    return count;
}

/* An area of the guest's memory the host writes into while no guest code reads it: a 4-byte
 * little-endian length, then that many bytes (at most the capacity). */
#define SANDBOX_AREA_CAPACITY (64 * 1024)
struct sandbox_area {
    uint32_t length;
    char bytes[SANDBOX_AREA_CAPACITY];
};

/* What the host left in `area` (taken: the length is reset, so nothing is taken twice),
 * Py_None when it left nothing, NULL (an exception set) when it cannot be made. */
static PyObject *take_area(struct sandbox_area *area, const char *name) {
    uint32_t length = area->length;
    area->length = 0;
    if (length == 0) {
        return Py_NewRef(Py_None);
    }
    if (length > SANDBOX_AREA_CAPACITY) {
        PyErr_Format(PyExc_ValueError, "%s: length over its capacity", name);
        return NULL;
    }
    return PyBytes_FromStringAndSize(area->bytes, length);
}

/* A host tool's answer, left by the host during the write of the tool's request (a
 * longer one is read from the tool channel). Exported by the link
 * (-Wl,--export=sandbox_answer); the guest's tool stubs take it with
 * _sandbox_entry.take_answer(), which saves each call the host call of reading it. */
__attribute__((used)) struct sandbox_area sandbox_answer;

static PyObject *sandbox_take_answer(PyObject *module, PyObject *unused) {
    (void)module;
    (void)unused;
    return take_area(&sandbox_answer, "sandbox_answer");
}

/* The guest's run-time guard, called by a C audit hook for the events it watches only.
 * CPython calls every hook with every event, and a hook written in Python costs a Python
 * call each: `builtins.id` raises one per call (copy.deepcopy's memo makes thousands of them
 * a chart), which took id() from 0.05 to 0.5 us. Set once: the bootstrap sets it while it
 * builds the snapshot, so user code that imports this module cannot add or replace it. */
#define SANDBOX_MAX_GUARDED_EVENTS 16
static PyObject *guard_function;
static PyObject *guard_events;  /* a tuple of str, kept alive: guard_event_names point in it */
static const char *guard_event_names[SANDBOX_MAX_GUARDED_EVENTS];
static Py_ssize_t guard_event_count;

static int guard_audit_hook(const char *event, PyObject *args, void *unused) {
    (void)unused;
    for (Py_ssize_t i = 0; i < guard_event_count; i++) {
        if (strcmp(event, guard_event_names[i]) == 0) {
            PyObject *call[2] = {PyTuple_GET_ITEM(guard_events, i), args};
            PyObject *result = PyObject_Vectorcall(guard_function, call, 2, NULL);
            if (result == NULL) {
                return -1;
            }
            Py_DECREF(result);
            return 0;
        }
    }
    return 0;
}

static PyObject *sandbox_set_audit_guard(PyObject *module, PyObject *const *args,
                                         Py_ssize_t nargs) {
    (void)module;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "set_audit_guard(guard, events) takes 2 arguments");
        return NULL;
    }
    if (guard_function != NULL) {
        PyErr_SetString(PyExc_RuntimeError, "the audit guard is set already");
        return NULL;
    }
    PyObject *function = args[0], *events = args[1];
    if (!PyCallable_Check(function) || !PyTuple_CheckExact(events)
            || PyTuple_GET_SIZE(events) > SANDBOX_MAX_GUARDED_EVENTS) {
        PyErr_Format(PyExc_TypeError, "set_audit_guard() takes a callable and a tuple of at "
                     "most %d event names", SANDBOX_MAX_GUARDED_EVENTS);
        return NULL;
    }
    Py_ssize_t count = PyTuple_GET_SIZE(events);
    for (Py_ssize_t i = 0; i < count; i++) {
        const char *name = PyUnicode_Check(PyTuple_GET_ITEM(events, i))
            ? PyUnicode_AsUTF8(PyTuple_GET_ITEM(events, i)) : NULL;
        if (name == NULL) {
            if (!PyErr_Occurred()) {
                PyErr_SetString(PyExc_TypeError, "set_audit_guard(): event names are str");
            }
            return NULL;
        }
        guard_event_names[i] = name;
    }
    /* The hook calls nothing until the count is set. */
    if (PySys_AddAuditHook(guard_audit_hook, NULL) < 0) {
        return NULL;
    }
    guard_function = Py_NewRef(function);
    guard_events = Py_NewRef(events);
    guard_event_count = count;
    Py_RETURN_NONE;
}

static PyMethodDef sandbox_entry_methods[] = {
    {"take_answer", sandbox_take_answer, METH_NOARGS,
     "take_answer()\n--\n\nThe tool answer the host left in the answer area (bytes), or "
     "None."},
    {"set_audit_guard", (PyCFunction)(void (*)(void))sandbox_set_audit_guard, METH_FASTCALL,
     "set_audit_guard(guard, events)\n--\n\nCall guard(event, args) for each audit event "
     "named in the tuple `events`, and for no other (once per interpreter)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef sandbox_entry_module = {
    PyModuleDef_HEAD_INIT, "_sandbox_entry",
    "What the sandbox's entry layer gives the guest bootstrap.", -1, sandbox_entry_methods,
};

static PyObject *PyInit__sandbox_entry(void) { return PyModule_Create(&sandbox_entry_module); }

/* The audit's facts from the parser's own tree (sandbox_audit.c), a built-in module of every
 * runtime this file is linked into, and this file's own module. */
PyMODINIT_FUNC PyInit__sandbox_audit(void);
static struct _inittab sandbox_audit_inittab[] = {
    {"_sandbox_audit", PyInit__sandbox_audit},
    {"_sandbox_entry", PyInit__sandbox_entry},
    {NULL, NULL},
};

#ifdef SANDBOX_EXTRA_BUILTINS
/* A runtime with extension modules linked in statically (the data runtime: numpy, pandas)
 * registers them as built-in modules here; the build generates this function. */
int sandbox_register_builtins(void);
#endif

__attribute__((export_name("sandbox_init"))) void sandbox_init(void) {
    PyStatus status;
    if (!sandbox_ctors_ran) {
        __wasm_call_ctors();
    }
    if (PyImport_ExtendInittab(sandbox_audit_inittab) < 0) {
        fail("registering _sandbox_audit");
    }
#ifdef SANDBOX_EXTRA_BUILTINS
    if (sandbox_register_builtins() < 0) {
        fail("registering the statically linked extension modules");
    }
#endif

    PyPreConfig preconfig;
    PyPreConfig_InitIsolatedConfig(&preconfig);
    preconfig.utf8_mode = 1;
    check(Py_PreInitialize(&preconfig), "Py_PreInitialize");

    PyConfig config;
    PyConfig_InitIsolatedConfig(&config);
    /* python -I -S -u, hash seed 0 */
    config.site_import = 0;
    config.user_site_directory = 0;
    config.use_environment = 0;
    config.buffered_stdio = 0;
    config.use_hash_seed = 1;
    config.hash_seed = 0;
    config.write_bytecode = 0;
    config.install_signal_handlers = 1; /* as the python CLI does */
    config.use_frozen_modules = 1;
    config.pathconfig_warnings = 0;
    config.parse_argv = 0;
    config.safe_path = 1;
    /* No filesystem search path: every module comes from built-ins, frozen modules or the
     * in-memory stdlib. prefix & co. are set so that getpath computes nothing. */
    config.module_search_paths_set = 1;
    check(PyConfig_SetString(&config, &config.program_name, L"python"), "program_name");
    check(PyConfig_SetString(&config, &config.executable, L"/usr/local/bin/python3.13"),
          "executable");
    check(PyConfig_SetString(&config, &config.home, L"/usr/local"), "home");
    check(PyConfig_SetString(&config, &config.prefix, L"/usr/local"), "prefix");
    check(PyConfig_SetString(&config, &config.exec_prefix, L"/usr/local"), "exec_prefix");
    check(PyConfig_SetString(&config, &config.base_prefix, L"/usr/local"), "base_prefix");
    check(PyConfig_SetString(&config, &config.base_exec_prefix, L"/usr/local"),
          "base_exec_prefix");
    char *argv[] = {"python", "--snapshot-init"};
    check(PyConfig_SetBytesArgv(&config, 2, argv), "argv");
    /* Core phase first: builtin and frozen importers only; the stdlib finder is installed
     * before the main phase imports encodings and io. */
    config._init_main = 0;
    status = Py_InitializeFromConfig(&config);
    PyConfig_Clear(&config);
    check(status, "Py_InitializeFromConfig (core)");

    install_stdlib_finder();
    check(_Py_InitializeMain(), "_Py_InitializeMain");

    /* The guest bootstrap, as `python -c <source> --snapshot-init` runs it. */
    char *guest = read_file(INIT_DIR "/guest.py", NULL);
    PyCompilerFlags cf = _PyCompilerFlags_INIT;
    cf.cf_flags |= PyCF_IGNORE_COOKIE;
    if (PyRun_SimpleStringFlags(guest, &cf) != 0) {
        fail("the guest bootstrap raised (traceback above)");
    }
    free_zeroed(guest);
    PyObject *main_module = PyImport_AddModule("__main__"); /* borrowed */
    if (main_module == NULL || !PyObject_HasAttrString(main_module, "serve")) {
        fail("the guest bootstrap defines no serve()");
    }

    immortalize_heap();

    /* Every run starts at this depth (no frame is active here), so this is the budget. */
    PyThreadState_Get()->c_recursion_remaining = SANDBOX_C_RECURSION_LIMIT;

    /* Nothing of the init run's filesystem survives into the snapshot. */
    __wasilibc_reset_preopens();
    __wasilibc_cwd = SANDBOX_WORKING_DIRECTORY;
    sandbox_in_init = 0;
}

/* The next run's request, written by the host: 0 bytes when the host wrote none (a longer
 * request comes on stdin). Exported by the link (-Wl,--export=sandbox_request). */
__attribute__((used)) struct sandbox_area sandbox_request;

__attribute__((export_name("sandbox_resume"))) int sandbox_resume(void) {
    PyObject *main_module = PyImport_AddModule("__main__"); /* borrowed */
    PyObject *serve = main_module ? PyObject_GetAttrString(main_module, "serve") : NULL;
    PyObject *request = serve ? take_area(&sandbox_request, "sandbox_request") : NULL;
    PyObject *result = request ? PyObject_CallOneArg(serve, request) : NULL;
    Py_XDECREF(request);
    Py_XDECREF(serve);
    int code = 0;
    /* serve() returns the request's exit status (0-255) when it comes to rest. */
    int status = 0;
    if (result != NULL && PyLong_Check(result)) {
        long value = PyLong_AsLong(result);
        if (value == -1 && PyErr_Occurred()) {
            PyErr_Clear();
        }
        status = (int)(value & 0xFF);
    }
    if (result == NULL) {
        code = 1;
        if (PyErr_ExceptionMatches(PyExc_SystemExit)) {
            PyErr_Clear(); /* PyErr_Print would finalise the interpreter */
        } else {
            PyErr_Print();
        }
    }
    Py_XDECREF(result);
    PyObject *out = PySys_GetObject("stdout"); /* borrowed */
    if (out != NULL && out != Py_None) {
        PyObject *r = PyObject_CallMethod(out, "flush", NULL);
        if (r == NULL) {
            PyErr_Clear();
        }
        Py_XDECREF(r);
    }
    if (code != 0) {
        __wasi_proc_exit(code);
    }
    /* Returning, not proc_exit(0): no trap (wasmtime would capture a backtrace for it), and
     * the host can tell a request that came back to rest from one that exited. */
    return status;
}
