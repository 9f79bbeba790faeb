"""The replay timeline of a log crossing New Year: the first tick of each group's time axis
carries its day and year (three lines, ``20:00 / Dec-31 / 2025``), and every x label stays clear
of the next group's title and inside the figure (as drawn, measured by matplotlib)."""

from __future__ import annotations

import pandas as pd

from budgetlab.cli import main


def _auth_log(path):
    # 400 sshd lines a minute apart from 2025-12-31 20:00:10, hosts web1/web2 alternating,
    # every tenth a failure (90 % accepted)
    t0 = pd.Timestamp("2025-12-31 20:00:10")
    lines = []
    for i in range(400):
        t = t0 + pd.Timedelta(minutes=i)
        word = "Failed" if i % 10 == 9 else "Accepted"
        lines.append(f"{t:%b %d %H:%M:%S} web{1 + i % 2} sshd[1]: {word} password for x from "
                     "10.0.0.1 port 22 ssh2")
    path.write_text("\n".join(lines) + "\n")


def _measure(fig):
    """Each x label's box, the box of its axes, the group titles' axes and boxes (top first), and
    the tick texts, as drawn."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    tops = sorted((a for a in fig.axes if a.get_title(loc="left")),
                  key=lambda a: -a.get_window_extent(renderer).y1)
    return {"titles": [(a.get_title(loc="left"), a.get_window_extent(renderer),
                        a.title.get_window_extent(renderer)) for a in tops],
            "labels": [(a.xaxis.label.get_window_extent(renderer), a.get_window_extent(renderer),
                        [t.get_text() for t in a.get_xticklabels() if t.get_text()])
                       for a in fig.axes if a.get_xlabel() == "time (UTC)"],
            "figure": fig.bbox.frozen()}


def test_x_labels_clear_the_next_title_and_the_figure_edge(tmp_path, monkeypatch):
    import budgetlab._util.figures as figures

    real, seen = figures.figure_bytes, []

    def keep(fig, path, **kw):
        seen.append(_measure(fig))
        return real(fig, path, **kw)

    monkeypatch.setattr(figures, "figure_bytes", keep)
    log = tmp_path / "auth.log"
    _auth_log(log)
    assert main(["replay", str(log), "--preset", "sshd", "--year", "2025", "--window", "1h",
                 "--by", "host", "--target", "0.9", "--plot", str(tmp_path / "ny.png")]) == 0
    (drawn,) = seen
    assert [name for name, _, _ in drawn["titles"]] == ["host=web1", "host=web2"]
    assert len(drawn["labels"]) == 2
    assert any(t.count("\n") == 2 for t in drawn["labels"][0][2])  # a tick on three lines
    for label, box, _ in drawn["labels"]:
        assert label.y0 >= drawn["figure"].y0  # not cut at the figure's bottom edge
        below = [title for _, axes, title in drawn["titles"] if axes.y1 < box.y0]
        for title in below[:1]:  # the next group's title, drawn below the label
            assert label.y0 > title.y1
