"""An HTML page with the history of a `tune` search: every candidate's
values, games and estimates, and plots of the estimates against the targets.

`write_tune_report(folder, result)` writes `report.html` and its PNG plots
into `folder` and returns the path of the HTML file.
"""
from __future__ import annotations

import html
from pathlib import Path

from .. import files
from .report import CSS, HEIGHT, WIDTH, _pyplot, _save, _table


def _history_plot(plt, folder: Path, result, target, index: int) -> str:
    """A target's estimate and interval for each candidate, in the order they
    were proposed; the size of a point grows with its games."""
    fig, ax = plt.subplots(figsize=(WIDTH, HEIGHT))
    ax.axhspan(target.low, target.high, color="#cde8cd", label="target")
    for c in result.candidates:
        est, low, high = c.estimates[target.name]
        colour = "#a40000" if c is result.best else ("#1f5fa0" if not c.out else "#999999")
        ax.errorbar([c.number], [est], yerr=[[est - low], [high - est]], fmt="o", color=colour, capsize=3,
                    markersize=3 + 2 * (c.games / max(result.best.games, 1)) ** 0.5 * 3)
    ax.set_xlabel("candidate (in the order proposed)")
    ax.set_ylabel(f"{target.name} (95% interval)")
    ax.set_title(f"Search history: {target.name} (red: best, grey: out of the race)")
    ax.legend(fontsize=8, loc="best")
    return _save(plt, fig, folder, f"history_{index}.png")


def _response_plot(plt, folder: Path, result, target, index: int):
    """The estimate against the value of the one numeric parameter searched."""
    if len(result.params) != 1 or result.params[0].choices:
        return None
    label = result.params[0].label
    fig, ax = plt.subplots(figsize=(WIDTH, HEIGHT))
    ax.axhspan(target.low, target.high, color="#cde8cd", label="target")
    for c in result.candidates:
        est, low, high = c.estimates[target.name]
        colour = "#a40000" if c is result.best else "#1f5fa0"
        ax.errorbar([c.values[label]], [est], yerr=[[est - low], [high - est]], fmt="o", color=colour, capsize=3)
    ax.set_xlabel(label)
    ax.set_ylabel(f"{target.name} (95% interval)")
    ax.set_title(f"{target.name} against {label}")
    ax.legend(fontsize=8, loc="best")
    return _save(plt, fig, folder, f"response_{index}.png")


def _rows(result) -> list:
    e = html.escape
    rows = []
    for c in sorted(result.candidates, key=lambda c: c.rank()):
        values = ", ".join(f"{e(k)} = {e(str(v))}" for k, v in c.values.items())
        cells = [f"<b>{c.number}</b>" if c is result.best else str(c.number), values, str(c.games)]
        for t in result.targets:
            est, low, high = c.estimates[t.name]
            cells.append(f"{est:+.4f} ({low:+.4f} to {high:+.4f})")
        cells += [c.loss, c.pessimistic, "yes" if not c.out else "no"]
        rows.append(cells)
    return rows


def write_tune_report(folder, result) -> Path:
    """Write report.html and its plots into `folder`; return the HTML path."""
    plt = _pyplot()
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    images = []
    for i, t in enumerate(result.targets):
        images.append((_history_plot(plt, folder, result, t, i), f"{t.name} of every candidate"))
        response = _response_plot(plt, folder, result, t, i)
        if response:
            images.append((response, f"{t.name} against the searched value"))
    e = html.escape
    s = result.settings
    title = f"Tuning {s['title']}"
    parts = [f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{e(title)}</title><style>{CSS}</style>"
             f"</head><body>", f"<h1>{e(title)}</h1>",
             f"<p>{e(result.rules)}: searched {e('; '.join(s['params']))}; targets "
             f"{e(', '.join(f'{t.name} in {t.low:g}..{t.high:g}' for t in result.targets))}. "
             f"{len(result.candidates)} candidates, {result.games} games in all (budget {s['budget']}), "
             f"{s['players']} players, bots {e(', '.join(s['bots']))}, seed {s['seed']}; rungs of "
             f"{e(', '.join(map(str, s['rungs'])))} games.</p>",
             "<h2>Best</h2>", "<pre>" + e("\n".join(result.evidence())) + "</pre>",
             "<h2>Every candidate</h2>",
             "<p>Best first. Loss: how far the estimates lie outside the targets, in target widths; "
             "pessimistic: the same for the far ends of the intervals. Every candidate played the same games "
             "(common random numbers), the promising ones more of them.</p>",
             _table(["candidate", "values", "games", *[f"{t.name} (95% interval)" for t in result.targets],
                     "loss", "pessimistic", "in race"], _rows(result))]
    for src, caption in images:
        parts.append(f"<figure><img src='{e(src)}' alt='{e(caption)}'><figcaption>{e(caption)}</figcaption></figure>")
    parts.append("</body></html>")
    path = folder / "report.html"
    files.write_text(path, "\n".join(parts), "the report")
    return path
