"""URLs wherever a path is read (file://, e2.bucas.name boards, http(s)), and `render --url`."""

from __future__ import annotations

import json

import pytest
from conftest import INSTANCES, run_cli

from tilesolve.core.textfile import as_url, source_stem

E2 = INSTANCES / "e2_4x4.txt"


@pytest.mark.parametrize(
    ("given", "url"),
    [
        ("https://e2.bucas.name/#a=1", "https://e2.bucas.name/#a=1"),
        ("https:/e2.bucas.name/#a=1", "https://e2.bucas.name/#a=1"),  # as typer's Path leaves it
        ("file:///tmp/x.txt", "file:///tmp/x.txt"),
        ("file:/tmp/x.txt", "file:///tmp/x.txt"),
        ("instances/e2_4x4.txt", None),
        ("c:/boards/x.txt", None),
    ],
)
def test_urls_are_told_from_paths(given, url):
    assert as_url(given) == url


def test_a_url_is_named_by_its_file_or_puzzle():
    assert source_stem("https:/example.org/boards/e2_6x6.txt?raw=1") == "e2_6x6"
    assert source_stem("https://e2.bucas.name/#puzzle=joshua&board_w=2") == "joshua"


def test_file_urls_as_instance_and_solution(tmp_path):
    sol = tmp_path / "b.sol"
    res = run_cli("solve", f"file://{E2.resolve()}", "-o", sol, "--json")
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["verified"] is True
    res = run_cli("verify", E2, f"file://{sol}")
    assert res.returncode == 0 and res.stdout.startswith("valid"), res.stdout + res.stderr


@pytest.fixture(scope="module")
def board_url(tmp_path_factory):
    """The viewer URL of a solved 4x4 board, from `render --url`."""
    sol = tmp_path_factory.mktemp("url") / "b.sol"
    assert run_cli("solve", E2, "-o", sol).returncode == 0
    res = run_cli("render", E2, sol, "--url")
    assert res.returncode == 0, res.stderr
    return res.stdout.strip()


def test_render_url_shows_the_solved_board(board_url):
    assert board_url.startswith("https://e2.bucas.name/#puzzle=e2_4x4&board_w=4&board_h=4")
    assert len(board_url.split("board_edges=")[1]) == 4 * 16
    res = run_cli("verify", E2, board_url)
    assert res.returncode == 0 and res.stdout.startswith("valid"), res.stdout + res.stderr


def test_board_url_is_an_instance_without_download(board_url):
    """The URL holds its pieces: read as an instance, its own board solves it."""
    res = run_cli("info", board_url, "--json")
    assert res.returncode == 0, res.stderr
    info = json.loads(res.stdout)
    assert (info["size"], info["pieces"]) == ("4x4", 16)
    res = run_cli("verify", board_url, board_url, "--json")
    assert res.returncode == 0 and json.loads(res.stdout)["valid"] is True


def test_render_url_without_a_solution_lays_the_pieces_out():
    res = run_cli("render", E2, "--url")
    assert res.returncode == 0, res.stderr
    res = run_cli("verify", E2, res.stdout.strip(), "--json")
    assert res.returncode == 1  # pieces 1..16 in a row are no solution, but they are all there
    kinds = {v["kind"] for v in json.loads(res.stdout)["violations"]}
    assert "mismatch" in kinds and "missing-piece" not in kinds


def test_unreachable_url_is_one_line_and_exit_2():
    url = "http://127.0.0.1:9/e2_4x4.txt"  # the discard port: refused at once, no network
    res = run_cli("solve", url)
    assert res.returncode == 2
    assert res.stderr.strip().splitlines() == [res.stderr.strip()]
    assert url in res.stderr and "cannot fetch" in res.stderr
    res = run_cli("info", url, "--json")
    assert res.returncode == 2 and json.loads(res.stdout)["file"] == url


def test_render_url_refuses_other_families():
    res = run_cli("render", INSTANCES / "hidato_19_01.txt", "--url")
    assert res.returncode == 2 and "edge-matching" in res.stderr


def test_render_needs_a_file_or_url():
    res = run_cli("render", E2)
    assert res.returncode == 2 and "--url" in res.stderr


@pytest.fixture
def counted_url():
    """An http:// URL of the 4x4 instance on a local server, and the list of its requests."""
    import http.server
    import threading

    body = E2.read_bytes()
    requests: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 - the server's hook
            requests.append(self.path)
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):  # quiet
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/e2_4x4.txt", requests
    server.shutdown()


def test_solve_reads_the_instance_once_for_its_outputs(counted_url, tmp_path):
    url, requests = counted_url
    sol, svg = tmp_path / "b.sol", tmp_path / "b.svg"
    res = run_cli("solve", url, "-o", sol, "--render", svg, "--json", "--threads", "1")
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["verified"] is True
    assert sol.exists() and svg.read_text().startswith("<")
    assert requests == ["/e2_4x4.txt"]  # -o and --render draw on the solve's own reading


def test_a_bench_run_reads_its_instance_once(counted_url):
    from dataclasses import asdict

    from tilesolve.bench import Budget, run_one

    url, requests = counted_url
    row = run_one(url, "cpsat", 0, asdict(Budget(time_limit=30)))
    assert row["solved"] and row["family"] == "edgematch" and row["cells"] == 16
    assert requests == ["/e2_4x4.txt"]


def test_a_bench_sweep_reads_each_instance_once(counted_url):
    from tilesolve.bench import Budget, sweep

    url, requests = counted_url
    rows = sweep([url], ["cpsat", "sat"], 2, Budget(time_limit=30), jobs=2, progress=False)
    assert [(r["backend"], r["seed"]) for r in rows] == [
        ("cpsat", 0), ("cpsat", 1), ("sat", 0), ("sat", 1)]
    assert all(r["solved"] and r["cells"] == 16 for r in rows)
    assert requests == ["/e2_4x4.txt"]  # the check before the sweep and its four runs
