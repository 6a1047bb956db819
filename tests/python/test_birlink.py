"""The Python package, installed from the built wheel into a fresh virtual environment
(``scripts/test.sh``): the ``birlink`` command and the module on the samples give the
Rust CLI's bytes, and every error path raises what it says.

``BIRLINK_CLI`` names the Rust CLI to compare with; ``BIRLINK_SAMPLES`` the samples.
"""

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

import birlink

SAMPLES = Path(os.environ.get("BIRLINK_SAMPLES", Path(__file__).resolve().parents[2] / "www" / "samples"))
RUST_CLI = os.environ["BIRLINK_CLI"]
LOGS = Path(__file__).resolve().parents[2] / "crates" / "birlink-core" / "tests" / "logs"
INDEX = json.loads((SAMPLES / "index.json").read_text())
#: The command the wheel put on PATH (the venv's), not the Rust build's.
COMMAND = shutil.which("birlink")


def rust(*args, cwd=None):
    return subprocess.run([RUST_CLI, *args], capture_output=True, cwd=cwd)


def command(*args, cwd=None):
    return subprocess.run([COMMAND, *args], capture_output=True, cwd=cwd)


def test_the_command_is_the_wheels():
    assert COMMAND and Path(COMMAND).resolve() != Path(RUST_CLI).resolve()
    version = command("--version")
    assert version.returncode == 0
    assert version.stdout.decode().startswith(f"birlink {birlink.__version__} (")


@pytest.mark.parametrize("sample", [s["file"] for s in INDEX])
def test_every_sample_links_to_the_clis_bytes(sample, tmp_path, monkeypatch):
    # A work directory's sample in the seeds' reading asks for it (a bundle says its own);
    # the others link as the compiler decides.
    entry = next(s for s in INDEX if s["file"] == sample)
    flow = ["--flow", "seeds"] if entry.get("files") and entry["flow"] == "seeds" else []
    ours, theirs = tmp_path / "ours", tmp_path / "theirs"
    a = command("link", sample, "--out", str(ours), "--quiet", *flow, cwd=SAMPLES)
    b = rust("link", sample, "--out", str(theirs), "--quiet", *flow, cwd=SAMPLES)
    assert a.returncode == b.returncode
    for name in ["report.json", "linked.json", "bir_linker.log"]:
        assert (ours / name).exists() == (theirs / name).exists(), name
        if (theirs / name).exists():
            assert (ours / name).read_bytes() == (theirs / name).read_bytes(), name
    # The module gives the same bytes, in-process (files named as given, as the CLI's).
    monkeypatch.chdir(SAMPLES)
    result = birlink.link(sample, flow=entry["flow"] if flow else None)
    assert result.report_json().encode() == (theirs / "report.json").read_bytes()
    assert result.flow == entry["flow"]
    linked = result.linked_json()
    if (theirs / "linked.json").exists():
        assert linked == (theirs / "linked.json").read_bytes()
    else:
        assert linked is None
    log = result.bir_linker_log()
    if (theirs / "bir_linker.log").exists():
        assert log.encode() == (theirs / "bir_linker.log").read_bytes()
    else:
        assert log is None
    # The merged tensor maps: the seeds' one, or one per core in the modular flow.
    maps = result.tensor_maps()
    written = sorted(p.name for p in theirs.glob("tensor*.json"))
    assert sorted(maps) == written
    for name, text in maps.items():
        assert text.encode() == (theirs / name).read_bytes(), name
    assert result.ok == (b.returncode == 0)


def test_the_modular_flow_links_each_core_as_the_compiler_does():
    result = birlink.link(SAMPLES / "moe-2core.json")
    assert result.ok and result.flow == "modular"
    assert result.report["options"]["flow_source"] == "netlist"
    linked = json.loads(result.linked_json())
    assert [m["name"] for m in linked["modules"]] == ["nc00/sgLnk", "nc01/sgLnk"]
    assert [f["name"] for f in linked["modules"][0]["functions"]] == ["main", "sg0000", "sg0001", "sg0002"]
    calls = [r for r in result.report["dispatcher"] if r["core"] == 0]
    assert len(calls) == 48 and calls[0]["call"] == "call_def_0_instance_0" and calls[47]["call"] == "call_def_47_instance_0"
    log = result.bir_linker_log().splitlines()
    assert log[0] == "(nc00) [CoreForkPass]: Running bir_linker"
    assert "(nc00/sgLnk) [BirLinker]: Num Module Definitions 3" in log
    assert log[-1] == "[VncLink]: Found 12 remote updates", log[-4:]
    # The flat flow: no bir_linker, the per-core modules as they are.
    flat = birlink.link(SAMPLES / "flat-2core.json")
    assert flat.ok and flat.flow == "flat"
    assert all(p["name"] != "bir_linker" for p in flat.report["passes"])
    # The seeds' reading, asked for: the cores merged into one module.
    seeds = birlink.link(SAMPLES / "flat-2core.json", flow="seeds")
    assert seeds.flow == "seeds" and "modules" not in json.loads(seeds.linked_json())
    with pytest.raises(ValueError, match="flow must be"):
        birlink.link(SAMPLES / "flat-2core.json", flow="merged")


def test_a_failing_link_is_a_result_with_its_diagnostics():
    result = birlink.link(SAMPLES / "error-1514.json")
    assert not result.ok
    assert result.failed_pass == "vnc_remote_addr_map"
    d = next(d for d in result.diagnostics if d.code == "1514")
    # 1514 is vnc_remote_addr_map's; the compiler's NCC_ILLC059 is lower_local_collectives' (BL0207).
    assert (d.ncc, d.severity, d.pass_name, d.core) == (None, "error", "vnc_remote_addr_map", 1)
    assert d.file.endswith("error-1514.json") and d.line > 0 and d.column > 0
    assert d.pointer.endswith("/remote_local_target")
    assert "c_partial_0" in d.nearest and d.help
    assert result.report["passes"][2]["status"] == "error"
    assert "error[1514]: could not find memory location" in str(result)
    assert result.text().startswith("module nc00/sgLnk")
    assert "failed in vnc_remote_addr_map" in repr(result)


def test_options_as_the_cli_has_them():
    linked = birlink.link(SAMPLES / "matmul-2core.json", lnc=2, passes="verify,bir_linker")
    assert linked.ok
    assert [p["status"] for p in linked.report["passes"]] == ["ok", "ok", "skipped", "skipped"]
    assert birlink.link([SAMPLES / "matmul-2core.json"], lnc=3).failed_pass is not None


def test_every_error_path_raises_what_it_says(tmp_path):
    with pytest.raises(FileNotFoundError):
        birlink.link(tmp_path / "nowhere.json")
    with pytest.raises(FileNotFoundError):
        birlink.link(SAMPLES / "matmul-2core.json", netlist=tmp_path / "nowhere.json")
    with pytest.raises(ValueError, match="from 1 to 64"):
        birlink.link(SAMPLES / "matmul-2core.json", lnc=65)
    with pytest.raises(ValueError, match="no pass `vnc_links`"):
        birlink.link(SAMPLES / "matmul-2core.json", passes=["vnc_links"])
    with pytest.raises(ValueError, match="no input"):
        birlink.link([])
    with pytest.raises(ValueError, match="unknown code"):
        birlink.explain("NCC_NOPE999")
    with pytest.raises(ValueError, match="does not fail"):
        birlink.reduce(SAMPLES / "matmul-2core.json")
    with pytest.raises(ValueError, match="no view"):
        birlink.share(SAMPLES / "matmul-2core.json", view="graph")
    # A file that is not JSON is a diagnostic, not an exception.
    bad = tmp_path / "nc00.json"
    bad.write_text("{ not json")
    result = birlink.link(bad)
    assert not result.ok and result.diagnostics[0].code == "BL0002"


def test_explain_is_the_clis():
    for code in ["1514", "NCC_ILLC059", "ncc_ixlv002", "BL0010"]:
        assert birlink.explain(code).encode() == rust("explain", code).stdout


def test_read_log_is_the_clis():
    names = sorted(p.name for p in LOGS.glob("*.txt"))
    assert len(names) >= 4, names
    for name in names:
        path = LOGS / name
        cli = rust("explain", "--log", str(path), "--format", "json")
        assert cli.returncode == 0, cli.stderr
        # The same bytes as the CLI's, from a path, its bytes or its text.
        assert (birlink._birlink.read_log(path.read_bytes()) + "\n").encode() == cli.stdout
        expected = json.loads(cli.stdout)
        assert birlink.read_log(path) == expected
        assert birlink.read_log(str(path)) == expected
        assert birlink.read_log(path.read_bytes()) == expected
        assert birlink.read_log(path.read_text()) == expected
    failed = birlink.read_log(LOGS / "two-compiles.txt")
    assert failed["run_index"] == 1 and len(failed["runs"]) == 2
    assert failed["failure"]["pass"] == "lower_local_collectives"
    assert failed["failure"]["code"] == "NCC_ILLC059"
    assert failed["failure"]["names"] == [{"name": "inst____mp_main__.sbuf_allreduce_tp4-0:sbuf_in.23", "core": 1}]


def test_read_log_beside_dumps_is_the_clis():
    for sample in ["workdir-illc059", "workdir-moe"]:
        log = SAMPLES / sample / "log-neuron-cc.txt"
        cli = rust("explain", "--log", str(log), str(SAMPLES / sample), "--format", "json")
        assert cli.returncode == 0, cli.stderr
        read = birlink.read_log(log, SAMPLES / sample)
        assert read == json.loads(cli.stdout)
        assert (birlink._birlink.read_log(log.read_bytes(), [str(SAMPLES / sample)], None) + "\n").encode() == cli.stdout
    flat = birlink.read_log(SAMPLES / "workdir-illc059" / "log-neuron-cc.txt", SAMPLES / "workdir-illc059")
    assert flat["beside"]["failure"]["verdict"] == "same" and flat["beside"]["failure"]["birlink"] == "BL0207"
    modular = birlink.read_log(SAMPLES / "workdir-moe" / "log-neuron-cc.txt", [SAMPLES / "workdir-moe"])
    assert [c["first_difference"] for c in modular["beside"]["bir_linker"]] == [None, None]


def test_reduce_is_the_clis(tmp_path):
    out = tmp_path / "repro.json"
    assert rust("reduce", "--out", str(out), str(SAMPLES / "error-1514.json")).returncode == 0
    assert birlink.reduce(SAMPLES / "error-1514.json") == out.read_bytes()
    kept = birlink.reduce(SAMPLES / "warning-1189.json", code="1189", keep_names=True)
    assert json.loads(kept)["modules"]


def test_share_is_the_clis():
    base = "https://example.org/birlink/"
    ours = birlink.share(SAMPLES / "error-1514.json", base=base, view="diagnostics")
    theirs = rust("share", str(SAMPLES / "error-1514.json"), "--base", base, "--view", "diagnostics").stdout
    assert (ours + "\n").encode() == theirs
    assert ours.startswith(base + "#")


def test_the_module_runs_as_a_script():
    run = subprocess.run([os.environ.get("PYTHON", "python"), "-m", "birlink", "explain", "1514"], capture_output=True)
    assert run.returncode == 0 and run.stdout.startswith(b"1514")


def test_the_wheel_carries_the_web_app():
    from birlink import _birlink

    for name in ["index.html", "app.js", "app_bg.wasm", "worker.js", "worker_bg.wasm", "style.css"]:
        assert _birlink.web_file(name), name
    assert _birlink.web_file("../Cargo.toml") is None


def test_show_makes_a_widget_with_the_files():
    widget = birlink.show(SAMPLES / "error-1514.json", view="diagnostics", height=500)
    assert [f["name"] for f in widget.files] == ["error-1514.json"]
    assert widget.files[0]["data"] == (SAMPLES / "error-1514.json").read_bytes()
    assert (widget.view, widget.height) == ("diagnostics", 500)
    assert set(widget.assets) >= {"app.js", "app_bg.wasm", "worker.js", "worker_bg.wasm"}
    again = birlink.show(birlink.link(SAMPLES / "error-1514.json", lnc=2))
    assert again.lnc == 2


def test_the_types_ship_with_the_package():
    root = Path(birlink.__file__).parent
    assert (root / "py.typed").exists() and (root / "_birlink.pyi").exists()


def test_ctrl_c_stops_birlink_open_and_a_closed_pipe_is_quiet():
    import signal
    import time

    server = subprocess.Popen(
        [COMMAND, "open", str(SAMPLES / "error-1514.json"), "--no-browser"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        url = server.stdout.readline().decode().strip()
        assert url.startswith("http://127.0.0.1:"), url
        time.sleep(0.2)
        server.send_signal(signal.SIGINT)
        code = server.wait(timeout=10)
    finally:
        server.kill()
    # Ended by the signal itself, as the native binary is.
    assert code == -signal.SIGINT, code
    # `birlink print … | head -c 1`: no traceback, no panic.
    pipe = subprocess.run(
        f"{COMMAND} print {SAMPLES / 'ring-4core.json'} | head -c 1", shell=True, capture_output=True
    )
    assert pipe.stderr == b"", pipe.stderr


def test_a_work_directory_links_its_lower_sync_dumps_or_the_pass_asked(tmp_path):
    gen = tmp_path / "gen"
    assert rust("gen", "--cores", "2", "--out", str(gen)).returncode == 0
    work = tmp_path / "work"
    (work).mkdir()
    (work / "command.txt").write_text("neuronx-cc compile model.hlo --output model.neff\n")
    for core in ["nc00", "nc01"]:
        sg = work / core / "sg00"
        sg.mkdir(parents=True)
        module = (gen / f"{core}.json").read_bytes()
        (sg / "bir_debug.11.after-lower_dma.before-lower_sync.json").write_bytes(module)
        (sg / "bir_debug.12.after-lower_sync.before-lower_act.json").write_bytes(module)
        (sg / "def.json").write_text('{"not": "bir"}')
    result = birlink.link(work)
    assert result.ok, result.diagnostics
    files = [i["file"] for i in result.report["inputs"]]
    assert len(files) == 2 and all("after-lower_sync" in f for f in files), files
    assert [i["file"] for i in birlink.link(work, after="lower_dma").report["inputs"]] == [
        f.replace("12.after-lower_sync.before-lower_act", "11.after-lower_dma.before-lower_sync") for f in files
    ]
    # The command says what it took; the module's result is the command's report.
    ran = command("link", str(work), "--out", str(tmp_path / "out"))
    assert ran.returncode == 0 and b"set aside 5 files" in ran.stderr, ran.stderr
    assert (tmp_path / "out" / "report.json").read_text() == result.report_json()
    # A core without the pass: the folders' count is the LNC, and the link says so.
    (work / "nc01" / "sg00" / "bir_debug.12.after-lower_sync.before-lower_act.json").unlink()
    missing = birlink.link(work)
    assert not missing.ok and missing.report["options"]["lnc"] == 2
    assert missing.report["options"]["lnc_source"] == "workdir"


def test_a_work_directory_s_link_directory_and_merged_tensor_map(tmp_path):
    work = tmp_path / "work"
    shutil.copytree(SAMPLES / "workdir-ilnk020", work)
    # The seeds' link directory and merged map (the index says this sample's flow).
    result = birlink.link(work, flow="seeds")
    assert result.ok
    entries = {e["name"]: e for e in result.report["link_dir"]["entries"]}
    assert entries["weights_nc01.npy"]["placement"] == "symlink" and entries["weights_nc01.npy"]["core"] == 1
    assert entries["cpu_node_0/host_graph.json"]["placement"] == "copy"
    # Core 1's stale entry is birlink's reading of NCC_ILNK020: a warning, with its place.
    stale = [d for d in result.diagnostics if d.code == "BL0310"]
    assert len(stale) == 1 and stale[0].severity == "warning", result.diagnostics
    merged = json.loads(result.tensor_map_json())
    assert "layer_13_attn_out" in merged["nc01"]
    # The command makes the folder, and the same bytes.
    ran = command(
        "link", str(work), "--out", str(tmp_path / "out"), "--flow", "seeds", "--link-dir", str(tmp_path / "sgLnk")
    )
    assert ran.returncode == 0, ran.stderr
    assert (tmp_path / "sgLnk" / "weights_nc01.npy").is_symlink()
    assert (tmp_path / "sgLnk" / "tensor-map.json").read_text() == result.tensor_map_json()


def test_a_modular_work_directory_s_link_directories_and_tensor_maps(tmp_path):
    work = tmp_path / "work"
    shutil.copytree(SAMPLES / "workdir-moe", work)
    result = birlink.link(work)
    assert result.ok and result.flow == "modular"
    assert result.tensor_map_json() is None
    maps = result.tensor_maps()
    assert sorted(maps) == ["tensor_map.nc00.json", "tensor_map.nc01.json"]
    assert sorted(json.loads(maps["tensor_map.nc01.json"])) == ["sg0000", "sg0001", "sg0002"]
    entries = {e["name"]: e for e in result.report["link_dir"]["entries"]}
    assert entries["nc01/sgLnk/sg00/weights_sg02.npy"]["subgraph"] == 2
    assert entries["nc00/sgLnk/sg00/rope_table.npy"]["same_on"] == [1, 2]
    assert "Symlinking npy files to" in result.bir_linker_log()
    ran = command("link", str(work), "--out", str(tmp_path / "out"), "--link-dir", str(work))
    assert ran.returncode == 0, ran.stderr
    assert (work / "nc01" / "sgLnk" / "sg00" / "weights_sg02.npy").is_symlink()
    assert (work / "nc01" / "sgLnk" / "sg00" / "tensor_map.json").read_text() == maps["tensor_map.nc01.json"]


def test_diff_compares_two_link_sets_as_the_command_does(tmp_path):
    once, twice = SAMPLES / "sendrecv-called-once.json", SAMPLES / "sendrecv-called-twice.json"
    result = birlink.diff([once], [twice])
    assert result["equal"] is False
    assert [(b["core"], b["index"]) for b in result["barriers"]] == [(1, 5)]
    assert [k["code"] for k in result["diagnostics"]["only_b"]] == ["1189"]
    assert birlink.diff([once], [once])["equal"] is True
    masked = birlink.diff([once], [twice], normalize="numbers")
    assert masked["normalization"]["applied"] == ["numbers"]
    ran = command("diff", str(once), "--against", str(twice), "--format", "json")
    assert ran.returncode == 1 and json.loads(ran.stdout) == result
    with pytest.raises(ValueError):
        birlink.diff([once], [twice], normalize="letters")
    with pytest.raises(FileNotFoundError):
        birlink.diff([tmp_path / "nope.json"], [twice])


def test_the_sync_check_is_the_clis(tmp_path):
    # A barrier on one core's path only: the same report.sync bytes from the CLI's report
    # and from the module, natively in-process.
    sample = SAMPLES / "warning-BL0701.json"
    out = tmp_path / "out"
    assert rust("link", str(sample), "--out", str(out), "--quiet").returncode == 0
    report = json.loads((out / "report.json").read_text())
    result = birlink.link(sample)
    sync = result.sync()
    assert sync == report["sync"]
    # Byte for byte: the whole report (which holds it) is the CLI's.
    assert result.report_json().encode() == (out / "report.json").read_bytes()
    assert sync["execution"]["verdict"] == "deadlock" and sync["execution"]["exact"]
    root = next(b for b in sync["execution"]["blocked"] if b["root"])
    assert (root["core"], root["engine"], root["kind"]) == (0, "SP", "rendezvous")
    assert [f["code"] for f in sync["findings"]] == ["BL0701", "BL0706"]
    # Asked not to, or denied: as --no-sync and --deny sync.
    assert birlink.link(sample, sync=False).sync()["why"] == "--no-sync"
    denied = birlink.link(sample, deny_sync=True)
    assert not denied.ok and {d.severity for d in denied.diagnostics if d.pass_name == "sync"} == {"error"}
    # The check alone, on the linked set: no pass runs, the same verdict.
    checked = birlink.check(out / "linked.json")
    assert all(p["status"] == "skipped" for p in checked.report["passes"])
    assert checked.sync()["execution"] == sync["execution"]
    cli = rust("check", str(out / "linked.json"), "--format", "json")
    assert cli.returncode == 0 and checked.report_json().encode() == cli.stdout
    # The log rule, read with the log.
    log = birlink.read_log(SAMPLES / "workdir-moe" / "log-neuron-cc.txt")
    assert log["sync"]["source"] == "log" and log["sync"]["findings"] == []


def test_history_is_the_clis():
    # A work directory dumped after three passes: each pass with what it did per module,
    # the same JSON as `birlink history --format json`.
    workdir = SAMPLES / "workdir-2core"
    cli = rust("history", str(workdir), "--format", "json")
    assert cli.returncode == 0, cli.stderr
    history = birlink.history(workdir)
    assert history == json.loads(cli.stdout)
    # Two dumps read at once: the same history.
    assert birlink.history(workdir, threads=2) == history
    assert [p["name"] for p in history["passes"]] == ["lower_dma", "lower_sync", "lower_act"]
    assert [m["state"] for m in history["passes"][0]["changed"]] == ["first", "first"]
    # One entity, on one core.
    name = "input_act"
    one = birlink.history(workdir, entity=name, core=1)
    assert {s["core"] for s in one["entity"]["history"]} == {1}
    assert one["entity"]["history"][0]["state"] == "first"
    # The entity alone, with no pass table: the same history, as the CLI prints it.
    alone = birlink.history(workdir, entity=name, table=False)
    assert alone["entity"] == birlink.history(workdir, entity=name)["entity"]
    assert alone["no_table"] is True and all(p["changed"] == [] for p in alone["passes"])
    cli = rust("history", str(workdir), "--entity", name, "--no-table", "--format", "json")
    assert json.loads(cli.stdout) == alone
    with pytest.raises(ValueError):
        birlink.history(workdir, table=False)
    with pytest.raises(ValueError):
        birlink.history(SAMPLES / "matmul-2core.json")
