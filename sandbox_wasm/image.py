"""Images: pure-Python packages baked into a pre-initialised runtime.

`build_image(wheels, output)` (or `wasm-exec image build --wheel X.whl -o my-image.wasm`)
verifies the wheels (pure Python only, zip and RECORD intact, no path escaping the package
tree), pre-initialises the installed runtime again with their modules in memory and the
packages imported, and writes the image with a manifest next to it. `Sandbox(image=...)`
(or `execute(..., image=...)`) checks the image against its manifest, refuses a tampered
one, and adds its packages to the audit's allowlist (`allow_image_packages=False` keeps the
policy as it is).

Example:
    from sandbox_wasm import Sandbox
    from sandbox_wasm.image import build_image

    build_image(["tabulate-0.9.0-py3-none-any.whl"], "tabulate.wasm")
    with Sandbox(image="tabulate.wasm") as box:
        print(box.execute("from tabulate import tabulate; print(tabulate([[1, 2]]))").stdout)
"""

from ._errors import ImageBuildError, WheelError
from ._images.build import build_image, wheels_in
from ._images.image import ImageManifest, ImageWheel, manifest_path, verify_image
from ._images.wheel import Wheel, read_wheel
from ._sandbox import image_sandbox

__all__ = [
    "ImageBuildError",
    "ImageManifest",
    "ImageWheel",
    "Wheel",
    "WheelError",
    "build_image",
    "image_sandbox",
    "manifest_path",
    "read_wheel",
    "verify_image",
    "wheels_in",
]
