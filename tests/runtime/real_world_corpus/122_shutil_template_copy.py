# ruff: noqa
import os
import shutil
import unittest
from pathlib import Path
from string import Template


def render_site(template_dir, out_dir, context):
    if os.path.exists(out_dir):
        shutil.rmtree(out_dir)
    shutil.copytree(template_dir, out_dir)
    rendered = []
    for path in sorted(Path(out_dir).rglob("*.tmpl")):
        target = path.with_suffix("")
        target.write_text(Template(path.read_text()).safe_substitute(context))
        path.unlink()
        rendered.append(target.relative_to(out_dir).as_posix())
    return rendered


class RenderTest(unittest.TestCase):
    def setUp(self):
        t = Path("template")
        (t / "css").mkdir(parents=True, exist_ok=True)
        (t / "index.html.tmpl").write_text("<h1>$title</h1><p>$missing</p>")
        (t / "about.html.tmpl").write_text("About $title")
        (t / "css" / "site.css").write_text("body{}")

    def test_render(self):
        rendered = render_site("template", "public", {"title": "My Site"})
        self.assertEqual(rendered, ["about.html", "index.html"])
        self.assertEqual(Path("public/index.html").read_text(), "<h1>My Site</h1><p>$missing</p>")
        self.assertTrue(Path("public/css/site.css").exists())
        self.assertEqual(list(Path("public").rglob("*.tmpl")), [])

    def test_rerender_replaces(self):
        render_site("template", "public", {"title": "A"})
        Path("public/stale.txt").write_text("x")
        render_site("template", "public", {"title": "B"})
        self.assertFalse(Path("public/stale.txt").exists())
        self.assertEqual(Path("public/about.html").read_text(), "About B")


if __name__ == "__main__":
    RenderTest("test_render").setUp()
    print(render_site("template", "public", {"title": "Demo"}))
    print(Path("public/about.html").read_text())
    unittest.main(argv=["corpus"], verbosity=0, exit=True)
