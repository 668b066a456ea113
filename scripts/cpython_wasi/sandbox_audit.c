/* _sandbox_audit: the audit's facts of a source, gathered from the parser's own tree.
 *
 * Built into python-sandbox.wasm and python-data-sandbox.wasm (a built-in module, registered
 * by sandbox_entry.c). The guest bootstrap (sandbox_wasm/_guest/bootstrap.py) audits every
 * source before it runs: in Python that is ast.parse (the parser's C tree converted to
 * Python objects), a walk over those objects, and compile() of the tree (converted back to
 * C). Here the source is parsed once into the C tree, the facts are read off it, and the
 * same tree is compiled: what `_facts` of the bootstrap returns, without the two
 * conversions or the Python walk.
 *
 *   facts_and_code(source, filename, value_name, literal_calls, max_facts,
 *                  per_name_limit, max_name)
 *       -> ({"facts": [(kind, name, line, col), ...]} [+ "facts_truncated": True], code)
 *   compile_for_run(source, filename, value_name) -> code
 *
 * `code` is a code object, or a 1-tuple of one when the last statement is an expression:
 * that statement then assigns its value to the global `value_name` (as `_compile_module` of
 * the bootstrap does). The facts are exactly `_facts_of(ast.parse(source))` of the
 * bootstrap, in the same order (`ast.walk`'s breadth-first order; the walk's child lists
 * are generated from CPython's grammar, ast_children.py): the bootstrap keeps that Python
 * walk for runtimes without this module and for code compiled at run time, and the tests
 * compare the two on a corpus. Errors are the ones compile() raises for the same source
 * (SyntaxError, ValueError, MemoryError, RecursionError); parsing raises the same
 * "compile" audit event as compile(), so the runtime guard judges a source given here by
 * user code as it judges compile().
 */
#define PY_SSIZE_T_CLEAN
#include "Python.h"

#include "pycore_ast.h"       /* the parser's tree */
#include "pycore_compile.h"   /* _PyAST_Compile */
#include "pycore_parser.h"    /* _PyParser_ASTFromString */
#include "pycore_pyarena.h"
#include "pycore_pythonrun.h" /* _Py_SourceAsString */

/* ------------------------------------------------------------------ the walk's queue */

struct walk_item {
    void *node;
    int tag;
    int mark; /* MARK_* below, given by the node's parent */
};

/* A Name that is a call's function is not a "name" fact; a Name `sys` that is an
 * attribute's object is not a "sys_value" fact (the bootstrap's call_targets, sys_bases). */
enum { MARK_NONE = 0, MARK_CALL_TARGET = 1, MARK_SYS_BASE = 2 };

struct walk {
    struct walk_item *items;
    Py_ssize_t head, len, cap;
    void *mark_node; /* the child of the node being expanded that gets `mark_kind` */
    int mark_kind;
};

static int walk_push(struct walk *w, int tag, void *node) {
    if (node == NULL) {
        return 0; /* an absent optional field, or None in a list (a dict's ** entry) */
    }
    if (w->len == w->cap) {
        Py_ssize_t cap = w->cap ? w->cap * 2 : 256;
        struct walk_item *items = PyMem_Realloc(w->items, (size_t)cap * sizeof(*items));
        if (items == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        w->items = items;
        w->cap = cap;
    }
    w->items[w->len].node = node;
    w->items[w->len].tag = tag;
    w->items[w->len].mark = node == w->mark_node ? w->mark_kind : MARK_NONE;
    w->len++;
    return 0;
}

#define WALK_PUSH(tag, node) walk_push(w, (tag), (void *)(node))
#include "ast_children.h"

/* ------------------------------------------------------------------ the facts */

struct facts {
    PyObject *list;          /* [(kind, name, line, col)] */
    PyObject *seen;          /* {(kind, name): count} */
    PyObject *bound;         /* names an import binds */
    PyObject *literal_calls; /* getattr & co. */
    Py_ssize_t max_facts, per_name_limit, max_name;
};

/* The fact kinds, interned once. */
static PyObject *K_import, *K_import_alias, *K_literal_call, *K_call, *K_unbound_call,
    *K_attribute, *K_sys_attribute, *K_name, *K_sys_value, *K_string, *S_sys, *S_dot,
    *S_question, *S_dunder, *S_facts, *S_truncated;

/* The bootstrap's add(): names cut to max_name characters, at most per_name_limit facts
 * of one (kind, name). Steals nothing; `name` is borrowed. */
static int add_fact(struct facts *f, PyObject *kind, PyObject *name, int line, int col) {
    PyObject *cut = NULL;
    if (PyUnicode_GET_LENGTH(name) > f->max_name) {
        cut = PyUnicode_Substring(name, 0, f->max_name);
        if (cut == NULL) {
            return -1;
        }
        name = cut;
    }
    int rc = -1;
    PyObject *key = PyTuple_Pack(2, kind, name);
    if (key == NULL) {
        goto done;
    }
    PyObject *count = PyDict_GetItemWithError(f->seen, key); /* borrowed */
    if (count == NULL && PyErr_Occurred()) {
        goto done;
    }
    Py_ssize_t n = count == NULL ? 0 : PyLong_AsSsize_t(count);
    if (n < f->per_name_limit) {
        PyObject *next = PyLong_FromSsize_t(n + 1);
        if (next == NULL || PyDict_SetItem(f->seen, key, next) < 0) {
            Py_XDECREF(next);
            goto done;
        }
        Py_DECREF(next);
        PyObject *fact = Py_BuildValue("(OOii)", kind, name, line, col);
        if (fact == NULL || PyList_Append(f->list, fact) < 0) {
            Py_XDECREF(fact);
            goto done;
        }
        Py_DECREF(fact);
    }
    rc = 0;
done:
    Py_XDECREF(key);
    Py_XDECREF(cut);
    return rc;
}

/* "a.b.c" for a chain of attributes on a name; "?" stands for any other base. */
static PyObject *dotted(expr_ty node) {
    PyObject *parts = PyList_New(0);
    if (parts == NULL) {
        return NULL;
    }
    while (node->kind == Attribute_kind) {
        if (PyList_Append(parts, node->v.Attribute.attr) < 0) {
            goto fail;
        }
        node = node->v.Attribute.value;
    }
    if (PyList_Append(parts, node->kind == Name_kind ? node->v.Name.id : S_question) < 0 ||
        PyList_Reverse(parts) < 0) {
        goto fail;
    }
    PyObject *joined = PyUnicode_Join(S_dot, parts);
    Py_DECREF(parts);
    return joined;
fail:
    Py_DECREF(parts);
    return NULL;
}

static int is_str_constant(expr_ty node) {
    return node->kind == Constant_kind && PyUnicode_CheckExact(node->v.Constant.value);
}

static int facts_of_import(struct facts *f, stmt_ty node) {
    asdl_alias_seq *names = node->v.Import.names;
    for (Py_ssize_t i = 0; i < asdl_seq_LEN(names); i++) {
        alias_ty alias = asdl_seq_GET(names, i);
        PyObject *bound;
        if (alias->asname != NULL) {
            bound = Py_NewRef(alias->asname);
        } else {
            PyObject *split = PyUnicode_Split(alias->name, S_dot, 1);
            if (split == NULL) {
                return -1;
            }
            bound = Py_NewRef(PyList_GET_ITEM(split, 0));
            Py_DECREF(split);
        }
        int rc = PySet_Add(f->bound, bound);
        Py_DECREF(bound);
        if (rc < 0 || add_fact(f, K_import, alias->name, node->lineno, node->col_offset) < 0) {
            return -1;
        }
        if (PyUnicode_Compare(alias->name, S_sys) == 0 && alias->asname != NULL &&
            PyUnicode_Compare(alias->asname, S_sys) != 0 &&
            add_fact(f, K_import_alias, S_sys, node->lineno, node->col_offset) < 0) {
            return -1;
        }
        if (PyErr_Occurred()) {
            return -1;
        }
    }
    return 0;
}

static int facts_of_import_from(struct facts *f, stmt_ty node) {
    PyObject *dots = PyUnicode_FromOrdinal('.');
    PyObject *base = NULL;
    int rc = -1;
    if (dots == NULL) {
        return -1;
    }
    PyObject *prefix = PySequence_Repeat(dots, node->v.ImportFrom.level);
    if (prefix == NULL) {
        goto done;
    }
    PyObject *module = node->v.ImportFrom.module;
    base = module ? PyUnicode_Concat(prefix, module) : Py_NewRef(prefix);
    Py_DECREF(prefix);
    if (base == NULL) {
        goto done;
    }
    asdl_alias_seq *names = node->v.ImportFrom.names;
    for (Py_ssize_t i = 0; i < asdl_seq_LEN(names); i++) {
        alias_ty alias = asdl_seq_GET(names, i);
        if (PySet_Add(f->bound, alias->asname ? alias->asname : alias->name) < 0) {
            goto done;
        }
        PyObject *head = module ? PyUnicode_Concat(base, S_dot) : Py_NewRef(base);
        PyObject *full = head ? PyUnicode_Concat(head, alias->name) : NULL;
        Py_XDECREF(head);
        if (full == NULL) {
            goto done;
        }
        int added = add_fact(f, K_import, full, node->lineno, node->col_offset);
        Py_DECREF(full);
        if (added < 0) {
            goto done;
        }
    }
    rc = 0;
done:
    Py_XDECREF(base);
    Py_DECREF(dots);
    return rc;
}

static int facts_of_call(struct facts *f, struct walk *w, expr_ty node) {
    expr_ty func = node->v.Call.func;
    asdl_expr_seq *args = node->v.Call.args;
    if (func->kind == Name_kind) {
        w->mark_node = func;
        w->mark_kind = MARK_CALL_TARGET;
    }
    int named = 0;
    if (func->kind == Name_kind && asdl_seq_LEN(args) >= 2 &&
        is_str_constant(asdl_seq_GET(args, 1))) {
        named = PySequence_Contains(f->literal_calls, func->v.Name.id);
        if (named < 0) {
            return -1;
        }
    }
    PyObject *attribute = named ? asdl_seq_GET(args, 1)->v.Constant.value : NULL;
    int literal = 0;
    if (named) {
        literal = PyUnicode_Find(attribute, S_dunder, 0, PY_SSIZE_T_MAX, 1) == -1;
        if (PyErr_Occurred()) {
            return -1;
        }
    }
    PyObject *name = dotted(func);
    if (name == NULL) {
        return -1;
    }
    int rc = add_fact(f, literal ? K_literal_call : K_call, name, node->lineno,
                      node->col_offset);
    Py_DECREF(name);
    if (rc == 0 && named) {
        rc = add_fact(f, K_attribute, attribute, node->lineno, node->col_offset);
    }
    return rc;
}

static int facts_of_node(struct facts *f, struct walk *w, struct walk_item *item) {
    if (item->tag == TAG_stmt) {
        stmt_ty node = item->node;
        if (node->kind == Import_kind) {
            return facts_of_import(f, node);
        }
        if (node->kind == ImportFrom_kind) {
            return facts_of_import_from(f, node);
        }
        return 0;
    }
    if (item->tag != TAG_expr) {
        return 0;
    }
    expr_ty node = item->node;
    int line = node->lineno, col = node->col_offset;
    switch (node->kind) {
    case Call_kind:
        return facts_of_call(f, w, node);
    case Attribute_kind: {
        if (add_fact(f, K_attribute, node->v.Attribute.attr, line, col) < 0) {
            return -1;
        }
        expr_ty value = node->v.Attribute.value;
        if (value->kind == Name_kind && PyUnicode_Compare(value->v.Name.id, S_sys) == 0) {
            w->mark_node = value;
            w->mark_kind = MARK_SYS_BASE;
            return add_fact(f, K_sys_attribute, node->v.Attribute.attr, line, col);
        }
        return PyErr_Occurred() ? -1 : 0;
    }
    case Name_kind: {
        if (item->mark != MARK_CALL_TARGET &&
            add_fact(f, K_name, node->v.Name.id, line, col) < 0) {
            return -1;
        }
        if (PyUnicode_Compare(node->v.Name.id, S_sys) == 0 && item->mark != MARK_SYS_BASE) {
            return add_fact(f, K_sys_value, S_sys, line, col);
        }
        return PyErr_Occurred() ? -1 : 0;
    }
    case Constant_kind: {
        if (!PyUnicode_CheckExact(node->v.Constant.value)) {
            return 0;
        }
        PyObject *text = node->v.Constant.value;
        Py_ssize_t at = PyUnicode_Find(text, S_dunder, 0, PY_SSIZE_T_MAX, 1);
        if (at == -2) {
            return -1;
        }
        return at == -1 ? 0 : add_fact(f, K_string, text, line, col);
    }
    default:
        return 0;
    }
}

/* The bootstrap's last step: a dotted call whose first name no import binds. */
static int mark_unbound_calls(struct facts *f) {
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(f->list); i++) {
        PyObject *fact = PyList_GET_ITEM(f->list, i);
        PyObject *name = PyTuple_GET_ITEM(fact, 1);
        if (PyTuple_GET_ITEM(fact, 0) != K_call) {
            continue;
        }
        Py_ssize_t dot = PyUnicode_FindChar(name, '.', 0, PY_SSIZE_T_MAX, 1);
        if (dot == -2) {
            return -1;
        }
        if (dot == -1) {
            continue;
        }
        PyObject *first = PyUnicode_Substring(name, 0, dot);
        int is_bound = first ? PySet_Contains(f->bound, first) : -1;
        Py_XDECREF(first);
        if (is_bound < 0) {
            return -1;
        }
        if (!is_bound) {
            PyObject *unbound = Py_BuildValue("(OOOO)", K_unbound_call, name,
                                              PyTuple_GET_ITEM(fact, 2),
                                              PyTuple_GET_ITEM(fact, 3));
            if (unbound == NULL || PyList_SetItem(f->list, i, unbound) < 0) {
                return -1;
            }
        }
    }
    return 0;
}

/* {"facts": [...]} (and "facts_truncated") of a parsed module, as `_facts_of`. */
static PyObject *facts_of(mod_ty module, struct facts *f) {
    struct walk w = {0};
    PyObject *answer = NULL;
    if (walk_push(&w, TAG_mod, module) < 0) {
        goto done;
    }
    while (w.head < w.len) {
        if (PyList_GET_SIZE(f->list) >= f->max_facts) {
            break;
        }
        struct walk_item item = w.items[w.head++];
        w.mark_node = NULL;
        if (facts_of_node(f, &w, &item) < 0 || walk_push_children(&w, item.tag, item.node) < 0) {
            goto done;
        }
    }
    if (mark_unbound_calls(f) < 0) {
        goto done;
    }
    answer = PyDict_New();
    if (answer == NULL) {
        goto done;
    }
    if (PyList_GET_SIZE(f->list) >= f->max_facts) {
        if (PyList_SetSlice(f->list, f->max_facts, PyList_GET_SIZE(f->list), NULL) < 0 ||
            PyDict_SetItem(answer, S_facts, f->list) < 0 ||
            PyDict_SetItem(answer, S_truncated, Py_True) < 0) {
            Py_CLEAR(answer);
        }
    } else if (PyDict_SetItem(answer, S_facts, f->list) < 0) {
        Py_CLEAR(answer);
    }
done:
    PyMem_Free(w.items);
    return answer;
}

/* ------------------------------------------------------------------ parse and compile */

/* A source parsed as compile(source, filename, "exec", dont_inherit=True) parses it: the
 * tree lives in `arena`, which the caller frees. */
struct parsed {
    PyCompilerFlags flags;
    PyArena *arena;
    mod_ty module;
};

static int parse(PyObject *source, PyObject *filename, struct parsed *parsed) {
    parsed->flags = _PyCompilerFlags_INIT;
    parsed->flags.cf_flags = PyCF_SOURCE_IS_UTF8; /* what compile() sets */
    parsed->module = NULL;
    parsed->arena = _PyArena_New();
    if (parsed->arena == NULL) {
        return -1;
    }
    PyObject *source_copy = NULL;
    const char *text = _Py_SourceAsString(source, "compile", "string, bytes or AST",
                                          &parsed->flags, &source_copy);
    if (text != NULL) {
        parsed->module = _PyParser_ASTFromString(text, filename, Py_file_input,
                                                 &parsed->flags, parsed->arena);
    }
    Py_XDECREF(source_copy);
    if (parsed->module == NULL) {
        _PyArena_Free(parsed->arena);
        return -1;
    }
    return 0;
}

/* The code to run (see the module's comment). `module` is changed and then compiled. */
static PyObject *compile_for_run_tree(mod_ty module, PyObject *filename, PyObject *value_name,
                                      PyCompilerFlags *flags, PyArena *arena) {
    asdl_stmt_seq *body = module->v.Module.body;
    Py_ssize_t n = asdl_seq_LEN(body);
    stmt_ty last = n ? asdl_seq_GET(body, n - 1) : NULL;
    int wrap = last != NULL && last->kind == Expr_kind;
    if (wrap) {
        /* `<value_name> = <expression>`, both at the statement's location. */
        if (_PyArena_AddPyObject(arena, Py_NewRef(value_name)) < 0) {
            Py_DECREF(value_name);
            return NULL;
        }
        expr_ty target = _PyAST_Name(value_name, Store, last->lineno, last->col_offset,
                                     last->end_lineno, last->end_col_offset, arena);
        asdl_expr_seq *targets = target ? _Py_asdl_expr_seq_new(1, arena) : NULL;
        if (targets == NULL) {
            return NULL;
        }
        asdl_seq_SET(targets, 0, target);
        stmt_ty assign = _PyAST_Assign(targets, last->v.Expr.value, NULL, last->lineno,
                                       last->col_offset, last->end_lineno,
                                       last->end_col_offset, arena);
        if (assign == NULL) {
            return NULL;
        }
        asdl_seq_SET(body, n - 1, assign);
    }
    PyObject *code = (PyObject *)_PyAST_Compile(module, filename, flags, -1, arena);
    if (code == NULL || !wrap) {
        return code;
    }
    PyObject *wrapped = PyTuple_Pack(1, code);
    Py_DECREF(code);
    return wrapped;
}

static int check_args(PyObject *const *args, Py_ssize_t nargs, Py_ssize_t expected,
                      const char *name) {
    if (nargs != expected) {
        PyErr_Format(PyExc_TypeError, "%s() takes %zd arguments (%zd given)", name, expected,
                     nargs);
        return -1;
    }
    if (!PyUnicode_Check(args[1]) || !PyUnicode_Check(args[2])) {
        PyErr_Format(PyExc_TypeError, "%s(): filename and value_name must be str", name);
        return -1;
    }
    return 0;
}

static PyObject *audit_compile_for_run(PyObject *self, PyObject *const *args,
                                       Py_ssize_t nargs) {
    (void)self;
    if (check_args(args, nargs, 3, "compile_for_run") < 0) {
        return NULL;
    }
    struct parsed parsed;
    if (parse(args[0], args[1], &parsed) < 0) {
        return NULL;
    }
    PyObject *code = compile_for_run_tree(parsed.module, args[1], args[2], &parsed.flags,
                                          parsed.arena);
    _PyArena_Free(parsed.arena);
    return code;
}

static PyObject *audit_facts_and_code(PyObject *self, PyObject *const *args,
                                      Py_ssize_t nargs) {
    (void)self;
    if (check_args(args, nargs, 7, "facts_and_code") < 0) {
        return NULL;
    }
    struct facts f = {0};
    f.literal_calls = args[3];
    f.max_facts = PyLong_AsSsize_t(args[4]);
    f.per_name_limit = PyLong_AsSsize_t(args[5]);
    f.max_name = PyLong_AsSsize_t(args[6]);
    if (PyErr_Occurred()) {
        return NULL;
    }
    struct parsed parsed;
    if (parse(args[0], args[1], &parsed) < 0) {
        return NULL;
    }
    PyObject *answer = NULL, *code = NULL, *result = NULL;
    f.list = PyList_New(0);
    f.seen = PyDict_New();
    f.bound = PySet_New(NULL);
    if (f.list == NULL || f.seen == NULL || f.bound == NULL) {
        goto done;
    }
    /* Facts first: compiling folds constants in the tree. */
    answer = facts_of(parsed.module, &f);
    if (answer == NULL) {
        goto done;
    }
    code = compile_for_run_tree(parsed.module, args[1], args[2], &parsed.flags, parsed.arena);
    if (code != NULL) {
        result = PyTuple_Pack(2, answer, code);
    }
done:
    _PyArena_Free(parsed.arena);
    Py_XDECREF(f.list);
    Py_XDECREF(f.seen);
    Py_XDECREF(f.bound);
    Py_XDECREF(answer);
    Py_XDECREF(code);
    return result;
}

static PyMethodDef audit_methods[] = {
    {"facts_and_code", (PyCFunction)(void (*)(void))audit_facts_and_code, METH_FASTCALL,
     "facts_and_code(source, filename, value_name, literal_calls, max_facts, per_name_limit,"
     " max_name) -> (answer, code): the audit's facts of a source and its code to run."},
    {"compile_for_run", (PyCFunction)(void (*)(void))audit_compile_for_run, METH_FASTCALL,
     "compile_for_run(source, filename, value_name) -> code: the code to run, without facts."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef audit_module = {
    PyModuleDef_HEAD_INIT, "_sandbox_audit",
    "The audit's facts of a source from the parser's own tree (see sandbox_audit.c).", -1,
    audit_methods,
};

static int intern(PyObject **slot, const char *text) {
    *slot = PyUnicode_InternFromString(text);
    return *slot == NULL ? -1 : 0;
}

PyMODINIT_FUNC PyInit__sandbox_audit(void) {
    if (intern(&K_import, "import") < 0 || intern(&K_import_alias, "import_alias") < 0 ||
        intern(&K_literal_call, "literal_call") < 0 || intern(&K_call, "call") < 0 ||
        intern(&K_unbound_call, "unbound_call") < 0 || intern(&K_attribute, "attribute") < 0 ||
        intern(&K_sys_attribute, "sys_attribute") < 0 || intern(&K_name, "name") < 0 ||
        intern(&K_sys_value, "sys_value") < 0 || intern(&K_string, "string") < 0 ||
        intern(&S_sys, "sys") < 0 || intern(&S_dot, ".") < 0 || intern(&S_question, "?") < 0 ||
        intern(&S_dunder, "__") < 0 || intern(&S_facts, "facts") < 0 ||
        intern(&S_truncated, "facts_truncated") < 0) {
        return NULL;
    }
    return PyModule_Create(&audit_module);
}
