"""Without Ray, --ray says how to install it, before any work is done."""

import sys

from fever_core.cli import main


def test_ray_options_without_ray_say_how_to_install_it(monkeypatch, tmp_path, capsys, pages_file):
    monkeypatch.setitem(sys.modules, "ray", None)  # as where the extra is not installed
    assert (
        main(["--data-dir", str(tmp_path), "corpus", "build", "new", "--source", f"fever:{pages_file}", "--ray"]) == 2
    )
    assert "pip install -r requirements-ray.txt" in capsys.readouterr().err
    assert not (tmp_path / "corpora" / "new").exists()  # nothing was built
    claims = tmp_path / "claims.txt"
    claims.write_text("Jaws was directed by Steven Spielberg.\n")
    assert main(["--data-dir", str(tmp_path), "check-batch", str(claims), "--corpus", "nothing", "--ray"]) == 2
    assert "pip install -r requirements-ray.txt" in capsys.readouterr().err
