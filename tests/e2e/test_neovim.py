"""`paperscope lsp` in a real editor: headless Neovim with the README's configuration.

The README's Neovim block is the whole configuration (`nvim -u`); a small script then opens
a `.tex`, `.md`, `.typ` and `.org` file, asks the server for completion inside a citation
and for the hover on a cited key, as Neovim's own client does, and writes what came back
as JSON. HOME is the test's folder, so the block's `~/refs.bib` is the test library and
the installed `paperscope` runs from this environment's `bin` on PATH.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.tui.lsp.client import library_copy, server_env

README = Path(__file__).resolve().parents[2] / "README.md"
NVIM = shutil.which("nvim")

pytestmark = pytest.mark.skipif(NVIM is None, reason="nvim is not installed (.ci/run installs it)")

# (file, text, the cursor in a citation being typed (line, column), a column on the cited
# key of the second line)
DOCUMENTS = [
    (
        "paper.tex",
        "See \\citep[p.~3]{field1987relations, sparse code\nAs \\cite{knuth1984texbook}.",
        0,
        48,
        10,
    ),
    ("notes.md", "As [@field1987relations; @attention\nAs [@knuth1984texbook].", 0, 35, 8),
    ("talk.typ", "see @knuth1984texbook and #cite(<field\nAs @knuth1984texbook.", 0, 38, 6),
    ("agenda.org", "[cite:@field1987relations;@olshausen\nAs [cite:@knuth1984texbook].", 0, 36, 12),
]

SCRIPT = r"""
local out = {}
for _, doc in ipairs(vim.fn.json_decode(vim.fn.readfile("documents.json")[1])) do
  vim.cmd("edit " .. doc.name)
  vim.wait(20000, function() return #vim.lsp.buf_get_clients(0) > 0 end, 50)
  local uri = vim.uri_from_bufnr(0)
  local labels, hover = {}, nil
  local function ask(method, character)
    local params = { textDocument = { uri = uri }, position = { line = doc.line, character = character } }
    return vim.lsp.buf_request_sync(0, method, params, 5000) or {}
  end
  -- The library is opened after the server starts: ask until it answers.
  vim.wait(30000, function()
    for _, response in pairs(ask("textDocument/completion", doc.column)) do
      local result = response.result or {}
      for _, item in ipairs(result.items or result) do table.insert(labels, item.label) end
    end
    return #labels > 0
  end, 200)
  local on_key = { textDocument = { uri = uri }, position = { line = 1, character = doc.on_key } }
  for _, response in pairs(vim.lsp.buf_request_sync(0, "textDocument/hover", on_key, 5000) or {}) do
    if response.result then hover = response.result.contents.value end
  end
  out[doc.name] = { labels = labels, hover = hover, omnifunc = vim.bo.omnifunc }
end
vim.fn.writefile({ vim.fn.json_encode(out) }, "result.json")
vim.cmd("qa!")
"""


def readme_block() -> str:
    """The Lua block of the README's Neovim paragraph."""
    text = README.read_text(encoding="utf-8")
    start = text.index("**Neovim** (0.7 or later")
    block = re.search(r"```lua\n(.*?)```", text[start:], re.S)
    assert block is not None
    return block.group(1)


def test_neovim_completes_and_hovers_citations_with_the_readme_config(tmp_path: Path) -> None:
    assert NVIM is not None
    library_copy(tmp_path)
    (tmp_path / "init.lua").write_text(readme_block(), encoding="utf-8")
    (tmp_path / "test.lua").write_text(SCRIPT, encoding="utf-8")
    documents = []
    for name, text, line, column, on_key in DOCUMENTS:
        (tmp_path / name).write_text(text + "\n", encoding="utf-8")
        documents.append({"name": name, "line": line, "column": column, "on_key": on_key})
    (tmp_path / "documents.json").write_text(json.dumps(documents), encoding="utf-8")
    env = server_env(tmp_path)
    env["HOME"] = str(tmp_path)
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env["XDG_CONFIG_HOME"] = str(tmp_path / "xdg")  # no user Neovim config or plugins
    subprocess.run(
        [NVIM, "--headless", "-u", "init.lua", "-i", "NONE", "-c", "luafile test.lua"],
        cwd=tmp_path,
        env=env,
        timeout=180,
        check=True,
        stdin=subprocess.DEVNULL,
        capture_output=True,
    )
    result = json.loads((tmp_path / "result.json").read_text(encoding="utf-8"))
    firsts = {name: result[name]["labels"][:1] for name, *_ in DOCUMENTS}
    assert firsts == {
        "paper.tex": ["olshausen1996emergence"],
        "notes.md": ["vaswani2017attention"],
        "talk.typ": ["field1987relations"],
        "agenda.org": ["olshausen1996emergence"],
    }
    for name, *_ in DOCUMENTS:
        hover = result[name]["hover"]
        assert hover is not None and "The TeXbook" in hover and "Addison" in hover, name
        assert result[name]["omnifunc"] == "v:lua.vim.lsp.omnifunc"
