"""The encoder through ONNX Runtime gives PyTorch's vectors; its export is made once, checked, and remade when damaged."""

import json

import numpy as np
import pytest

from fever_core.retrieval.encoder import EXPORT_META, ONNX_FILE, OnnxEncoder, TorchEncoder, encode, load_encoder

TEXTS = [
    "Sherlock Holmes: Sherlock Holmes is a fictional private detective created by Arthur Conan Doyle.",
    "Jaws.",
    "",
    "Edinburgh: " + "It has been recognised as the capital since the 15th century. " * 60,
    "Ünïcödé and emoji 🦈 in Simón Bolívar's text.",
]


@pytest.fixture(scope="module")
def export_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("encoders")


def test_onnx_vectors_equal_pytorch_ones(settings, export_dir):
    onnx = load_encoder(settings.encoder_model, "cpu", cache_dir=export_dir)
    torch = load_encoder(settings.encoder_model, "cpu", backend="torch")
    assert isinstance(onnx, OnnxEncoder) and isinstance(torch, TorchEncoder)
    assert onnx.dimension() == torch.dimension() == 384
    got, expected = encode(onnx, TEXTS), encode(torch, TEXTS)
    assert got.dtype == np.float32 and got.shape == (len(TEXTS), 384)
    np.testing.assert_allclose(got, expected, atol=1e-5)  # the long text is cut at the model's 256 tokens in both
    np.testing.assert_allclose(np.linalg.norm(got, axis=1), 1, atol=1e-6)
    # batching and order do not change a text's vector
    np.testing.assert_allclose(onnx.encode(TEXTS[::-1], batch_size=2)[::-1], got, atol=1e-5)
    assert encode(onnx, []).shape == (0, 384)


def test_a_damaged_export_is_made_again(settings, export_dir, caplog):
    load_encoder(settings.encoder_model, "cpu", cache_dir=export_dir)
    [folder] = [p for p in export_dir.iterdir() if p.is_dir()]
    meta = json.loads((folder / EXPORT_META).read_text())
    assert meta["pooling"] == "mean" and len(meta["checksum"]) == 32
    with (folder / ONNX_FILE).open("r+b") as fh:
        fh.seek(5000)
        fh.write(b"\0" * 64)
    load_encoder.cache_clear()
    again = load_encoder(settings.encoder_model, "cpu", cache_dir=export_dir)
    assert "does not match its checksum" in caplog.text
    assert isinstance(again, OnnxEncoder)
    torch = load_encoder(settings.encoder_model, "cpu", backend="torch")
    np.testing.assert_allclose(encode(again, TEXTS[:2]), encode(torch, TEXTS[:2]), atol=1e-5)


def test_an_unknown_backend_is_refused(settings):
    with pytest.raises(ValueError, match="Unknown encoder backend 'tpu'"):
        load_encoder(settings.encoder_model, "cpu", backend="tpu")


def test_an_export_that_finds_the_disk_full_runs_in_pytorch_and_gives_its_room_back(settings, tmp_path, caplog):
    from benchmarks.reliability.messages import small_disk

    try:
        with small_disk(tmp_path / "disk", 4096) as disk:  # the export needs ~90 MB
            load_encoder.cache_clear()
            encoder = load_encoder(settings.encoder_model, "cpu", cache_dir=disk / "encoders")
            left = [p.name for p in (disk / "encoders").iterdir()]
    except PermissionError as exc:
        pytest.skip(f"a full disk is a small tmpfs here: {exc}")
    finally:
        load_encoder.cache_clear()
    assert isinstance(encoder, TorchEncoder) and "runs in PyTorch, not ONNX Runtime" in caplog.text
    assert left == [], "no half-written export is left on the full disk"


def test_the_int8_encoder_is_close_to_fp32_and_gives_a_text_one_vector_whatever_its_batch(settings, export_dir):
    fp32 = load_encoder(settings.encoder_model, "cpu", cache_dir=export_dir)
    int8 = load_encoder(settings.encoder_model, "cpu", cache_dir=export_dir, precision="int8")
    assert (fp32.precision, int8.precision) == ("fp32", "int8") and isinstance(int8, OnnxEncoder)
    [folder] = [p for p in export_dir.iterdir() if p.name.endswith("-int8")]
    assert (folder / ONNX_FILE).stat().st_size < (folder.parent / folder.name[:-5] / ONNX_FILE).stat().st_size / 3
    got, reference = encode(int8, TEXTS), encode(fp32, TEXTS)
    assert got.dtype == np.float32 and got.shape == (len(TEXTS), 384)
    np.testing.assert_allclose(np.linalg.norm(got, axis=1), 1, atol=1e-5)
    assert (got * reference).sum(axis=1).min() > 0.97
    # its inputs are quantised over the whole batch: a text's vector must not depend on its neighbours
    np.testing.assert_allclose(int8.encode(TEXTS[::-1], batch_size=64)[::-1], got, atol=1e-6)
    np.testing.assert_allclose(encode(int8, TEXTS[:1])[0], got[0], atol=1e-6)


def test_precision_is_what_was_asked_else_the_index_s_else_int8_on_a_cpu(settings):
    from fever_core.retrieval.encoder import resolve_precision

    assert resolve_precision("auto", "cpu") == "int8"
    assert resolve_precision("auto", "cpu", built_with="fp32") == "fp32"
    assert resolve_precision("fp32", "cpu", built_with="int8") == "fp32"
    with pytest.raises(ValueError, match="Unknown encoder precision 'int4'"):
        resolve_precision("int4", "cpu")
    with pytest.raises(ValueError, match="use fp32 or int8"):
        load_encoder(settings.encoder_model, "cpu", precision="auto")


def test_an_export_is_named_by_the_model_not_its_path_and_found_from_a_copy_of_the_model(
    settings, export_dir, tmp_path, monkeypatch
):
    import shutil

    from fever_core.retrieval import encoder as encoder_module

    load_encoder(settings.encoder_model, "cpu", cache_dir=export_dir)
    copy = shutil.copytree(settings.encoder_model, tmp_path / "another-install" / "minilm")
    monkeypatch.setattr(encoder_module, "export_onnx", lambda *a: pytest.fail("the export is the same model's"))
    moved = load_encoder(str(copy), "cpu", cache_dir=export_dir)
    assert isinstance(moved, OnnxEncoder) and moved.identity.name == "minilm"
    assert moved.identity.same_model(load_encoder(settings.encoder_model, "cpu", cache_dir=export_dir).identity)


def test_a_read_only_data_folder_s_missing_export_is_made_in_the_user_s_cache(
    settings, export_dir, tmp_path, monkeypatch
):
    import shutil

    from benchmarks.reliability.messages import read_only
    from fever_core.retrieval import encoder as encoder_module

    load_encoder(settings.encoder_model, "cpu", cache_dir=export_dir)
    [made] = [p for p in export_dir.iterdir() if p.is_dir() and not p.name.endswith("-int8")]
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    exported = []
    monkeypatch.setattr(
        encoder_module,
        "export_onnx",  # the same export, copied: made in seconds, not minutes
        lambda name, folder: (exported.append(folder), shutil.copytree(made, folder))[1],
    )
    data = tmp_path / "data"
    (data / "encoders").mkdir(parents=True)
    load_encoder.cache_clear()
    try:
        with read_only(data):
            encoder = load_encoder(settings.encoder_model, "cpu", cache_dir=data / "encoders")
    except PermissionError as exc:
        pytest.skip(f"a read-only folder is a read-only bind mount for root here: {exc}")
    finally:
        load_encoder.cache_clear()
    assert isinstance(encoder, OnnxEncoder)
    assert exported == [tmp_path / "user-cache" / "fever-workbench" / "encoders" / made.name]


def test_an_export_named_by_path_before_identities_is_used_and_renamed_by_identity(
    settings, export_dir, tmp_path, monkeypatch
):
    import shutil

    from fever_core.retrieval import encoder as encoder_module

    load_encoder(settings.encoder_model, "cpu", cache_dir=export_dir)
    [made] = [p for p in export_dir.iterdir() if p.is_dir() and not p.name.endswith("-int8")]
    cache = tmp_path / "encoders"
    earlier = shutil.copytree(made, cache / encoder_module._path_export_key(settings.encoder_model))
    monkeypatch.setattr(encoder_module, "export_onnx", lambda *a: pytest.fail("the earlier export is the model's"))
    load_encoder.cache_clear()
    try:
        assert isinstance(load_encoder(settings.encoder_model, "cpu", cache_dir=cache), OnnxEncoder)
    finally:
        load_encoder.cache_clear()
    assert [p.name for p in cache.iterdir()] == [made.name] and not earlier.exists()
