"""The config file: defaults, round trip, and a broken file left exactly as it was."""

from __future__ import annotations

from pathlib import Path

from tui.services.config import Config, load_config, save_config


def test_missing_file_gives_defaults_without_warning(tmp_path: Path) -> None:
    config, warnings = load_config(tmp_path / "absent.toml")
    assert config == Config()
    assert warnings == []


def test_round_trip_keeps_style_theme_and_keymap(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "config.toml"
    original = Config(style="ieee", theme="nord", keymap={"copy_citation": "y"})
    save_config(path, original)
    loaded, warnings = load_config(path)
    assert warnings == []
    assert (loaded.style, loaded.theme, dict(loaded.keymap)) == (
        "ieee",
        "nord",
        {"copy_citation": "y"},
    )
    assert not list(path.parent.glob("*.tmp")), "the atomic write left a temporary file"


def test_corrupt_file_gives_defaults_a_warning_with_line_and_is_untouched(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    text = 'style = "ieee"\ntheme = [unclosed\n'
    path.write_text(text, encoding="utf-8")
    config, warnings = load_config(path)
    assert config == Config()
    assert len(warnings) == 1
    assert str(path) in warnings[0] and "line 2" in warnings[0]
    assert path.read_text(encoding="utf-8") == text


def test_bad_values_are_dropped_one_by_one(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(
        'style = 3\ntheme = "nord"\n[keymap]\nquit = 5\nhelp = "f1"\n', encoding="utf-8"
    )
    config, warnings = load_config(path)
    assert config.style == Config().style
    assert config.theme == "nord"
    assert dict(config.keymap) == {"help": "f1"}
    assert len(warnings) == 2 and all(str(path) in w for w in warnings)
