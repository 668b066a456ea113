/* Why: a command-line python-data.wasm (not shipped) to smoke-test the data runtime's
 * extension modules with scripts, like the lean build's python.wasm: registers the
 * statically linked modules, then runs the normal python main. */
#include "Python.h"

int sandbox_register_builtins(void);

int main(int argc, char **argv) {
    if (sandbox_register_builtins() < 0) {
        return 120;
    }
    return Py_BytesMain(argc, argv);
}
