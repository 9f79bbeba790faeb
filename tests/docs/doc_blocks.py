"""The docs tests' helpers: the pages, their fenced code blocks, the sample files' code."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"

#: The files every page's examples may use, made in the page's working folder. The same code is
#: shown on docs/cli.md ("Example files") so that a reader can make them too.
SAMPLE_FILES_CODE = """\
import budgetlab as bl

events = bl.datasets.load("demo")
log = events.assign(outcome=events["bucket"].astype(str))[
    ["ts", "outcome", "captcha_type", "region", "sitekey"]]
log.to_parquet("outcomes.parquet")
log.to_csv("outcomes.csv", index=False)
bl.datasets.load("demo_incidents").to_csv("incidents.csv", index=False)
"""
#: repository fixtures copied in under these names
FIXTURE_COPIES = {
    "jobs.csv": ROOT / "tests" / "fixtures" / "jobs" / "job_status.csv",
    "access.log": ROOT / "tests" / "fixtures" / "elastic_apache" / "apache_logs",
    "auth.log": ROOT / "tests" / "fixtures" / "loghub" / "openssh_300.log",
    "proxy.log": ROOT / "tests" / "fixtures" / "loghub" / "proxifier_300.log",
    "openstack.log": ROOT / "tests" / "fixtures" / "loghub" / "openstack_400.log",
}

#: What a page says once when its Python blocks use names an earlier block made.
PAGES_SAY_SESSION = ("The Python blocks on this page run in one session, in order: a later block "
                     "uses the names an earlier one made")

SHOWN_LANGUAGES = {"text", "output", "yaml", "json", "toml", "ini", "csv", "promql", "none"}
PYTHON_LANGUAGES = {"python", "py"}
SHELL_LANGUAGES = {"bash", "console", "sh", "shell"}
_FENCE = re.compile(r"^(?P<indent> {0,3})(?P<fence>`{3,}|~{3,})(?P<info>[^`]*)$")
_NOT_EXECUTED = re.compile(r"^<!--\s*not executed:\s*(?P<reason>\S.*?)\s*-->$")


@dataclass(frozen=True)
class Block:
    page: Path
    line: int  # 1-based line of the opening fence
    language: str
    code: str
    not_executed: str | None  # the reason given in <!-- not executed: ... -->

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def pages() -> list[Path]:
    """README.md and every Markdown page of docs/ (not the build output)."""
    found = [ROOT / "README.md"]
    found += sorted(p for p in DOCS.rglob("*.md") if "_build" not in p.relative_to(DOCS).parts)
    return found


def blocks(page: Path) -> list[Block]:
    """The fenced blocks of a page (MyST directives such as ```{toctree} excluded)."""
    lines = page.read_text(encoding="utf-8").splitlines()
    out: list[Block] = []
    i = 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        fence, info = m.group("fence"), m.group("info").strip()
        j = i + 1
        while j < len(lines) and not re.match(
            rf"^ {{0,3}}{re.escape(fence[0])}{{{len(fence)},}}\s*$", lines[j]
        ):
            j += 1
        if not info.startswith("{"):
            k = i - 1
            while k >= 0 and not lines[k].strip():
                k -= 1
            mark = _NOT_EXECUTED.match(lines[k].strip()) if k >= 0 else None
            out.append(Block(page, i + 1, info.split()[0].lower() if info else "",
                             "\n".join(lines[i + 1:j]) + "\n",
                             mark.group("reason") if mark else None))
        i = j + 1
    return out
