"""`wasm-exec image build|show`: bake pure-Python wheels into a pre-initialised runtime.

    wasm-exec image build --wheel tabulate-0.9.0-py3-none-any.whl -o tabulate.wasm
    wasm-exec image build --wheelhouse ./wheels --preload tabulate -o my-image.wasm
    wasm-exec image show my-image.wasm        # verify it against its manifest, print it
    wasm-exec --image my-image.wasm -c "import tabulate"
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from .._images.build import DEFAULT_MEMORY_MB, DEFAULT_TIMEOUT_S, build_image, wheels_in
from .._images.image import ImageManifest, manifest_path, verify_image
from ._common import EXIT_OK, OneLineParser, UsageError, add_runtime_arg

PROG = "wasm-exec image"


def _summary(path: Path, manifest: ImageManifest) -> str:
    wheels = ", ".join(f"{w.name} {w.version}" for w in manifest.wheels) or "none"
    return "\n".join((
        f"image: {path} ({manifest.size:,} bytes, sha256 {manifest.sha256})",
        f"manifest: {manifest_path(path)}",
        f"base runtime: {manifest.base_runtime.name} {manifest.python_version} "
        f"(sha256 {manifest.base_runtime.sha256})",
        f"wheels: {wheels}",
        f"packages (allowed by the audit): {', '.join(manifest.packages) or 'none'}",
        f"preloaded: {', '.join(manifest.preloaded) or 'none'}",
    ))


def _build(argv: Sequence[str]) -> int:
    parser = OneLineParser(
        prog=f"{PROG} build",
        description="Build an image: the installed runtime, pre-initialised with the "
        "packages of pure-Python wheels imported (dependencies are not resolved: give "
        "every wheel the packages need).",
    )
    parser.add_argument("--wheel", action="append", default=[], metavar="WHL",
                        help="a pure-Python wheel (repeatable)")
    parser.add_argument("--wheelhouse", action="append", default=[], metavar="DIR",
                        help="every .whl file of a directory (repeatable)")
    parser.add_argument("--preload", action="append", metavar="MODULE",
                        help="import only these while pre-initialising (repeatable; default: "
                        "every top-level package of the wheels)")
    parser.add_argument("--no-preload", action="store_true",
                        help="import nothing while pre-initialising (modules still load "
                        "from memory at first use)")
    parser.add_argument("-o", "--output", required=True, type=Path, metavar="IMAGE",
                        help="where to write the image (its manifest goes to IMAGE.json)")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT_S, metavar="S",
                        help=f"how long the packages' import may take (default "
                        f"{DEFAULT_TIMEOUT_S:g} s)")
    parser.add_argument("--memory-mb", type=int, default=DEFAULT_MEMORY_MB, metavar="MB",
                        help="guest memory the packages' import may use (default "
                        f"{DEFAULT_MEMORY_MB} MiB, at most 1024)")
    parser.add_argument("--json", action="store_true", help="print the manifest as JSON")
    add_runtime_arg(parser)
    args = parser.parse_args(list(argv))
    if args.no_preload and args.preload:
        raise UsageError("give either --preload or --no-preload, not both")
    wheels = [Path(w) for w in args.wheel]
    for directory in args.wheelhouse:
        wheels.extend(wheels_in(directory))
    if not wheels:
        raise UsageError("no wheels given (--wheel WHL or --wheelhouse DIR)")
    preload = () if args.no_preload else args.preload
    manifest = build_image(wheels, args.output, preload=preload, timeout_s=args.timeout,
                           memory_mb=args.memory_mb, runtime=args.runtime)
    print(manifest.model_dump_json(indent=2) if args.json else _summary(args.output, manifest))
    return EXIT_OK


def _show(argv: Sequence[str]) -> int:
    parser = OneLineParser(prog=f"{PROG} show",
                           description="Verify an image against its manifest and describe it.")
    parser.add_argument("image", type=Path, help="the image file")
    parser.add_argument("--json", action="store_true", help="print the manifest as JSON")
    args = parser.parse_args(list(argv))
    manifest = verify_image(args.image)
    print(manifest.model_dump_json(indent=2) if args.json else _summary(args.image, manifest))
    return EXIT_OK


ACTIONS = {"build": _build, "show": _show}


def main(argv: Sequence[str]) -> int:
    """`wasm-exec image ACTION ...`; errors propagate to the dispatcher, which maps them
    (a refused wheel is a usage error, exit 2; a failed build a runtime error, exit 70)."""
    argv = list(argv)
    if not argv or argv[0] not in ACTIONS:
        if argv and argv[0] in ("-h", "--help"):
            print(__doc__.strip())
            return EXIT_OK
        raise UsageError(f"expected one of: {', '.join(ACTIONS)} (e.g. '{PROG} build --wheel "
                         "X.whl -o my-image.wasm')")
    return ACTIONS[argv[0]](argv[1:])
