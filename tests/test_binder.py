"""The Binder configuration agrees with the package's own dependencies."""

import pathlib
import tomllib

ROOT = pathlib.Path(__file__).resolve().parent.parent


def _requirements():
    lines = (ROOT / "binder" / "requirements.txt").read_text().splitlines()
    return sorted(line.strip() for line in lines if line.strip() and not line.startswith("#"))


def test_binder_requirements_equal_the_package_dependencies():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert _requirements() == sorted(project["dependencies"])


def test_post_build_stops_on_error_and_installs_the_package():
    script = (ROOT / "binder" / "postBuild").read_text()
    assert "set -e" in script and "pip install" in script and script.startswith("#!")
