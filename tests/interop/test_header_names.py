"""Stop 60: ``--header 'Bad Name: S3CRETVAL'`` was sent, and the server's 400 was blamed on the
query ("fix the query"). A header name is an RFC 9110 token (section 5.6.2: ``1*tchar``, tchar =
letters, digits and ``!#$%&'*+-.^_`|~``); any other name is refused before anything is sent,
naming the name and never the value. Oracle: the RFC's tchar set, by hand, and a server on
127.0.0.1 that counts the requests it sees (none)."""

from __future__ import annotations

import http.server
import threading
from collections.abc import Iterator

import pytest

from budgetlab.cli import main
from budgetlab.cli.backtest import parse_headers
from budgetlab.errors import ConfigError
from budgetlab.interop.prometheus_source import read_prometheus

WHY = "(a name holds only letters, digits and !#$%&'*+-.^_`|~: no space, no colon)."


@pytest.fixture
def counting_server() -> Iterator[tuple[str, list[str]]]:
    seen: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (the standard library's name)
            seen.append(self.path)
            self.send_error(400)

        do_POST = do_GET  # noqa: N815

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
    server.timeout = 0.2
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05},
                              daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", seen
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


@pytest.mark.parametrize("name", ["Bad Name", "X(Y)", "Grüße", "X\"Q", "X/Y", "X@Y"])
def test_an_invalid_header_name_is_refused_before_anything_is_sent(name, counting_server, capsys):
    url, seen = counting_server
    rc = main(["backtest", "--prometheus", url, "--header", f"{name}: S3CRETVAL", "--total",
               "a_total", "--errors", "e_total", "--target", "0.999", "--policy", "workbook",
               "--start", "2026-02-01", "--end", "2026-02-02", "--timeout", "5"])
    out, err = capsys.readouterr()
    assert rc == 2
    assert err.strip() == (  # one line
        f"budgetlab: error: --header: {name!r} is not a valid header name {WHY}")
    assert "S3CRETVAL" not in out + err
    assert seen == []
    with pytest.raises(ConfigError) as info:
        read_prometheus(url, total="a_total", errors="e_total", start="2026-02-01",
                        end="2026-02-02", headers={name: "S3CRETVAL"}, timeout=5)
    assert str(info.value) == f"headers=: {name!r} is not a valid header name {WHY}"
    assert seen == []


def test_every_tchar_makes_a_valid_name():
    name = "!#$%&'*+-.^_`|~09AZaz"  # RFC 9110 5.6.2's tchar, each once
    assert parse_headers([f"{name}: v", "X-Scope-OrgID: team"]) == {name: "v",
                                                                     "X-Scope-OrgID": "team"}
