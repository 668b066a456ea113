# ruff: noqa
import glob
import json
import os


def make_gallery(folder, out="gallery.json"):
    """Index images in *folder* by extension into a JSON manifest.

    >>> os.makedirs("pics/2024", exist_ok=True)
    >>> for name in ["pics/a.jpg", "pics/b.PNG", "pics/2024/c.jpeg", "pics/readme.txt", "pics/2024/d.gif"]:
    ...     open(name, "wb").close()
    >>> make_gallery("pics")
    4
    >>> with open("gallery.json") as f:
    ...     manifest = json.load(f)
    >>> manifest["images"]
    ['2024/c.jpeg', '2024/d.gif', 'a.jpg', 'b.PNG']
    >>> manifest["by_type"]
    {'gif': 1, 'jpg': 2, 'png': 1}
    """
    exts = {".jpg": "jpg", ".jpeg": "jpg", ".png": "png", ".gif": "gif"}
    images = []
    for path in glob.iglob(os.path.join(folder, "**", "*"), recursive=True):
        if os.path.splitext(path)[1].lower() in exts:
            images.append(os.path.relpath(path, folder).replace(os.sep, "/"))
    images.sort()
    by_type = {}
    for img in images:
        kind = exts[os.path.splitext(img)[1].lower()]
        by_type[kind] = by_type.get(kind, 0) + 1
    with open(out, "w") as f:
        json.dump({"images": images, "by_type": dict(sorted(by_type.items()))}, f, indent=1)
    return len(images)


if __name__ == "__main__":
    import doctest
    print(doctest.testmod())
