"""The page asks for every module of its script at once (issue 45): a browser that found them
one import at a time paid a round trip for each level of imports. And for no other: a module
the page imports only later (`import()`) must not hold up its first paint on a slow 3G."""

from __future__ import annotations

import re
from pathlib import Path

from scorekeeper.headers import FOREVER, imported_modules

SCRIPTS = Path(__file__).resolve().parents[2] / "static" / "js"


def write(folder: Path, modules: dict[str, str]) -> None:
    """Modules of a made-up script, by name."""
    for name, text in modules.items():
        (folder / name).write_text(text)


def test_every_module_imported_however_deep_is_found_once(tmp_path):
    write(
        tmp_path,
        {
            "main.js": (
                'import { a } from "./a.js";\nimport "./side.js";\nconst x = "./no.js";\n'
                'import("./later.js").then((later) => later.go());\n'
            ),
            "a.js": "import {\n  b,\n  c,\n} from './b.js';\nexport { d } from \"./d.js\";\n",
            "b.js": 'import { main } from "./main.js";\nimport { a } from "./a.js";\n',
            "d.js": "export const d = 1;\n",
            "side.js": "// nothing imported\n",
            "unused.js": 'import { a } from "./a.js";\n',
            "later.js": 'import { b } from "./b.js";\nexport function go() {}\n',
        },
    )
    # Written out by hand: main imports a and side; a imports b and re-exports d; b imports
    # back (main, a); a string that names a module is no import; nothing imports unused, and
    # later.js is asked for by main only when that line runs.
    assert imported_modules(str(tmp_path)) == ["a.js", "side.js", "b.js", "d.js"]


# A static import in a module as served (minified: `import{a,b}from"./a.js"`, `import"./a.js"`,
# `export{d}from"./d.js"`), not an `import("./a.js")`, which runs when its line does.
STATIC_IMPORT = re.compile(
    r"""(?:^|[;}\s])(?:import|export)\s*(?:[\w$*{}\s,]*?from\s*)?["']\./([\w.-]+\.js)["']"""
)


def test_the_page_preloads_every_module_its_script_imports_and_no_other(guest, basra):
    page = guest.get(f"/m/{basra}").get_data(as_text=True)
    main = re.search(r'<script type="module" src="/js/([0-9a-f]+)/main\.js"', page)
    assert main
    preloaded = re.findall(r'<link rel="modulepreload" href="/js/([0-9a-f]+)/([\w.]+)"', page)
    assert {fingerprint for fingerprint, _ in preloaded} == {main.group(1)}
    # Every module the browser must have before main.js runs, found by following the static
    # imports of the modules as the app serves them, however deep.
    needed: set[str] = set()
    waiting = ["main.js"]
    while waiting:
        with guest.get(f"/js/{main.group(1)}/{waiting.pop()}") as served:
            assert served.status_code == 200
            assert served.headers["Cache-Control"] == FOREVER
            for name in STATIC_IMPORT.findall(served.get_data(as_text=True)):
                if name != "main.js" and name not in needed:
                    needed.add(name)
                    waiting.append(name)
    assert {"forms.js", "live.js", "outbox.js"} <= needed
    assert sorted(name for _, name in preloaded) == sorted(needed)
    # The modules main.js asks for once the page has loaded are there to be had, not preloaded.
    for later in ("awake.js", "share.js"):
        assert later not in needed
        with guest.get(f"/js/{main.group(1)}/{later}") as served:
            assert served.status_code == 200


def test_only_the_calculator_page_asks_for_the_calculator_s_module(guest, basra):
    calculator = guest.get(f"/m/{basra}/calc").get_data(as_text=True)
    sheet = guest.get(f"/m/{basra}").get_data(as_text=True)
    main = re.search(r'<script type="module" src="/js/([0-9a-f]+)/main\.js"', calculator)
    assert main
    asked = f'<link rel="modulepreload" href="/js/{main.group(1)}/calculator.js">'
    assert asked in calculator
    assert "calculator.js" not in sheet
