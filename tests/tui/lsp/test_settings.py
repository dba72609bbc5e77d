"""The language server's settings: the editor's options over the user's config."""

from __future__ import annotations

from pathlib import Path

import pytest

from tui.lsp.settings import read_settings


@pytest.fixture
def config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "config.toml"
    monkeypatch.setenv("PAPERSCOPE_CONFIG", str(path))
    return path


def test_the_configs_style_unless_the_editor_names_one(config: Path) -> None:
    config.write_text('style = "ieee"\n', encoding="utf-8")
    assert read_settings(None)[0].style == "ieee"
    settings, problems, warnings = read_settings(
        {"paperscope": {"style": "MLA", "debounce_ms": 50}}
    )
    assert (settings.style, settings.debounce, problems, warnings) == ("mla", 0.05, [], [])


def test_each_problem_is_named_and_the_default_kept(config: Path) -> None:
    settings, problems, _ = read_settings({"style": "nosuch", "debounce_ms": -1, "colour": 1})
    assert settings.style == "apa" and settings.debounce == 0.3
    assert any("style 'nosuch'" in p and "using apa" in p for p in problems)
    assert any("debounce_ms must be a number" in p for p in problems)
    assert any("unknown setting 'colour'" in p for p in problems)
    assert read_settings(["style"])[1] == [
        "paperscope: the initialization options must be an object; ignored"
    ]


def test_a_broken_config_is_a_warning_not_a_failure(config: Path) -> None:
    config.write_text("style = [\n", encoding="utf-8")
    settings, problems, warnings = read_settings({})
    assert settings.style == "apa" and problems == []
    assert len(warnings) == 1 and "not valid TOML" in warnings[0]
