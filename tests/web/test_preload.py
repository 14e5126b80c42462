"""The page asks for every module of its script at once (issue 45): a browser that found them
one import at a time paid a round trip for each level of imports."""

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
            "main.js": 'import { a } from "./a.js";\nimport "./side.js";\nconst x = "./no.js";\n',
            "a.js": "import {\n  b,\n  c,\n} from './b.js';\nexport { d } from \"./d.js\";\n",
            "b.js": 'import { main } from "./main.js";\nimport { a } from "./a.js";\n',
            "d.js": "export const d = 1;\n",
            "side.js": "// nothing imported\n",
            "unused.js": 'import { a } from "./a.js";\n',
        },
    )
    # Written out by hand: main imports a and side; a imports b and re-exports d; b imports
    # back (main, a); a string that names a module is no import; nothing imports unused.
    assert imported_modules(str(tmp_path)) == ["a.js", "side.js", "b.js", "d.js"]


def test_the_page_preloads_every_module_of_its_script_by_its_fingerprinted_path(guest, basra):
    page = guest.get(f"/m/{basra}").get_data(as_text=True)
    main = re.search(r'<script type="module" src="/js/([0-9a-f]+)/main\.js"', page)
    assert main
    preloaded = re.findall(r'<link rel="modulepreload" href="/js/([0-9a-f]+)/([\w.]+)"', page)
    assert {fingerprint for fingerprint, _ in preloaded} == {main.group(1)}
    # Every module there is (main.js imports all of them, some through another) but main.js,
    # which its own tag asks for, and the calculator's, which only its page needs.
    names = sorted(name for _, name in preloaded)
    page_own = {"main.js", "calculator.js"}
    assert names == sorted(p.name for p in SCRIPTS.glob("*.js") if p.name not in page_own)
    for name in names:
        with guest.get(f"/js/{main.group(1)}/{name}") as served:
            assert served.status_code == 200
            assert served.headers["Cache-Control"] == FOREVER


def test_only_the_calculator_page_asks_for_the_calculator_s_module(guest, basra):
    calculator = guest.get(f"/m/{basra}/calc").get_data(as_text=True)
    sheet = guest.get(f"/m/{basra}").get_data(as_text=True)
    main = re.search(r'<script type="module" src="/js/([0-9a-f]+)/main\.js"', calculator)
    assert main
    asked = f'<link rel="modulepreload" href="/js/{main.group(1)}/calculator.js">'
    assert asked in calculator
    assert "calculator.js" not in sheet
