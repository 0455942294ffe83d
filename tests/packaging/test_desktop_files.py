"""Desktop integration: the entry and the metainfo pass their validators, the icon comes in the hicolor
sizes, and install-desktop.sh puts them in the user's XDG folders, registers the audio and video types,
and writes an Exec line that adds and opens a recording."""

from __future__ import annotations

import configparser
import json
import re
import shutil
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET
from importlib.metadata import version
from pathlib import Path

import pytest

from tests.conftest import REPO, make_tone

PACKAGING = REPO / "packaging"
ENTRY = PACKAGING / "callmark.desktop"
METAINFO = PACKAGING / "app.callmark.Callmark.metainfo.xml"
HICOLOR = REPO / "resources" / "icons" / "hicolor"
SIZES = (16, 22, 24, 32, 48, 64, 128, 256, 512)


def _entry(path: Path) -> dict[str, str]:
    parser = configparser.ConfigParser(interpolation=None, delimiters=("=",))
    parser.optionxform = str  # keys are case-sensitive
    parser.read(path, encoding="utf-8")
    return dict(parser["Desktop Entry"])


def exec_argv(exec_line: str, file: str) -> list[str]:
    """The command a desktop runs for an Exec value and one file (Desktop Entry spec, "The Exec key")."""
    # The string-value escapes first (\\ is a backslash), then the quoting rule.
    value, unescaped, i = exec_line, [], 0
    while i < len(value):
        if value[i] == "\\" and i + 1 < len(value):
            unescaped.append({"s": " ", "n": "\n", "t": "\t", "r": "\r", "\\": "\\"}.get(value[i + 1], "\\" + value[i + 1]))
            i += 2
        else:
            unescaped.append(value[i])
            i += 1
    text, args, current, quoted, i = "".join(unescaped), [], None, False, 0
    while i < len(text):
        c = text[i]
        if quoted:
            if c == "\\" and i + 1 < len(text) and text[i + 1] in '"`$\\':
                current += text[i + 1]
                i += 1
            elif c == '"':
                quoted = False
            else:
                current += c
        elif c == '"':
            quoted, current = True, current or ""
        elif c == " ":
            if current is not None:
                args.append(current)
            current = None
        else:
            current = (current or "") + c
        i += 1
    if current is not None:
        args.append(current)
    out = []
    for arg in args:
        if arg in ("%f", "%F", "%u", "%U"):
            out.append(file)
        elif not re.fullmatch("%[a-zA-Z]", arg):  # other field codes stand for nothing here
            out.append(arg.replace("%%", "%"))
    return out


def test_the_entry_passes_desktop_file_validate():
    result = subprocess.run(["desktop-file-validate", str(ENTRY)], capture_output=True, text=True)
    assert result.returncode == 0 and not result.stdout.strip(), result.stdout + result.stderr
    entry = _entry(ENTRY)
    assert entry["Exec"] == "callmark %f" and entry["Icon"] == "callmark"
    types = entry["MimeType"].rstrip(";").split(";")
    assert {"audio/*", "video/*", "audio/ogg", "audio/mpeg", "video/mp4"} <= set(types)


def test_the_metainfo_passes_appstreamcli_validate():
    # --no-net: nothing leaves the machine (the screenshots' addresses are not fetched).
    result = subprocess.run(["appstreamcli", "validate", "--no-net", "--explain", str(METAINFO)],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    root = ET.parse(METAINFO).getroot()
    assert root.find("launchable[@type='desktop-id']").text == ENTRY.name
    assert root.find("content_rating").get("type") == "oars-1.1"
    assert root.findall("screenshots/screenshot/image")
    newest = root.find("releases/release")
    assert newest.get("version") == version("callmark"), "the metainfo's newest release is not this version"
    assert newest.find("description/p").text.strip()


def test_the_changelog_and_the_metainfo_name_this_version():
    changelog = (REPO / "CHANGELOG.md").read_text("utf-8")
    assert f"## {version('callmark')} " in changelog


def test_the_icon_comes_in_the_hicolor_sizes():
    ET.parse(HICOLOR / "scalable" / "apps" / "callmark.svg")
    for size in SIZES:
        png = (HICOLOR / f"{size}x{size}" / "apps" / "callmark.png").read_bytes()
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
        assert struct.unpack(">II", png[16:24]) == (size, size)


def test_bootstrap_says_what_it_installs():
    listed = subprocess.run(["bash", str(PACKAGING / "bootstrap.sh"), "--list"], capture_output=True, text=True,
                            check=True).stdout
    for package in ("libvlc5", "vlc-plugin-base", "desktop-file-utils", "appstream", "espeak-ng"):
        assert package in listed.split()


@pytest.fixture
def odd_command(tmp_path):
    """The callmark command at a path with a space, a quote, a dollar sign and a percent sign."""
    folder = tmp_path / 'my apps "$HOME" 100%'
    folder.mkdir()
    command = folder / "callmark"
    shutil.copy2(Path(sys.executable).parent / "callmark", command)
    return command


def test_install_desktop_registers_the_types_and_its_exec_line_adds_and_opens_a_recording(tmp_path, odd_command):
    data, config, home = tmp_path / "data", tmp_path / "config", tmp_path / "library"
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "XDG_DATA_HOME": str(data)}
    done = subprocess.run(["bash", str(PACKAGING / "install-desktop.sh"), "--exec", str(odd_command)], env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    installed = data / "applications" / "callmark.desktop"
    valid = subprocess.run(["desktop-file-validate", str(installed)], capture_output=True, text=True)
    assert valid.returncode == 0 and not valid.stdout.strip(), valid.stdout
    assert (data / "metainfo" / METAINFO.name).read_bytes() == METAINFO.read_bytes()
    for size in SIZES:
        assert (data / "icons" / "hicolor" / f"{size}x{size}" / "apps" / "callmark.png").is_file()
    assert (data / "icons" / "hicolor" / "scalable" / "apps" / "callmark.svg").is_file()
    cache = configparser.ConfigParser(interpolation=None, delimiters=("=",))
    cache.optionxform = str
    cache.read(data / "applications" / "mimeinfo.cache")
    for mime in ("audio/*", "video/*", "audio/ogg", "audio/mpeg", "audio/x-wav", "video/mp4", "video/webm"):
        assert "callmark.desktop" in cache["MIME Cache"].get(mime, "").split(";"), mime

    entry = _entry(installed)
    assert entry["TryExec"].replace("\\\\", "\\") == str(odd_command)
    recording = make_tone(tmp_path / "Acme call 3 (Friday).wav", seconds=2.0)
    argv = exec_argv(entry["Exec"], str(recording))
    assert argv == [str(odd_command), str(recording)]
    # What "Open with Callmark" runs, offscreen, told to quit once it is up.
    run_env = {**env, "PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin", "CALLMARK_HOME": str(home),
               "XDG_CONFIG_HOME": str(config), "QT_QPA_PLATFORM": "offscreen",
               "CALLMARK_VLC_ARGS": "--aout=dummy --vout=dummy"}
    opened = subprocess.run([*argv, "--quit-after", "3"], env=run_env, cwd=tmp_path, capture_output=True,
                            text=True, timeout=120)
    assert opened.returncode == 0, opened.stderr
    listed = subprocess.run([str(odd_command), "calls", "list", "--json"], env=run_env, capture_output=True,
                            text=True, timeout=60, check=True)
    # A new library also gets the demo call; the recording is added beside it, and it is the one open.
    (call,) = [c for c in json.loads(listed.stdout) if Path(c["media_path"]) == recording]
    settings = configparser.ConfigParser()
    settings.read(config / "Callmark" / "Callmark.conf")
    assert settings.get("workspace", "last_call") == str(call["id"])

    removed = subprocess.run(["bash", str(PACKAGING / "install-desktop.sh"), "--uninstall"], env=env,
                             capture_output=True, text=True, timeout=60)
    assert removed.returncode == 0, removed.stderr
    assert not installed.exists() and not (data / "metainfo" / METAINFO.name).exists()
    assert not list((data / "icons").rglob("callmark.*"))


def test_exec_lines_are_read_as_a_desktop_reads_them():
    assert exec_argv('"/a b/c\\\\$d" %f --x %%', "F") == ["/a b/c$d", "F", "--x", "%"]
    assert exec_argv("callmark %f", "/r/x y.ogg") == ["callmark", "/r/x y.ogg"]
