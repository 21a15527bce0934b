"""An HTML report with PNG plots (matplotlib) for a sweep or a comparison.

`write_report(folder, runs, comparison)` writes `report.html` and its images
into `folder` and returns the path of the HTML file. `runs` is a list of
(name, summary, samples), samples holding every final score ("scores") and
every game length ("turns"); the first run is the base of a comparison.
"""
from __future__ import annotations

import html
import io
import math
from pathlib import Path

from .. import files
from ..errors import RulesError

WIDTH, HEIGHT, DPI = 8.0, 4.5, 100  # 800 x 450 pixels

PROPORTION_METRICS = ("win_rate_seat_", "first_player_advantage", "decisiveness", "share:")


def _pyplot():
    try:
        import matplotlib
    except ImportError:
        raise RulesError("the report needs matplotlib: pip install matplotlib") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _save(plt, fig, folder: Path, name: str) -> str:
    fig.tight_layout()
    image = io.BytesIO()
    fig.savefig(image, dpi=DPI, format="png")
    plt.close(fig)
    files.write_bytes(folder / name, image.getvalue(), "the report's image")
    return name


def _edges(values, most: int = 30) -> list:
    """Bin edges on whole numbers, at most about `most` bins."""
    if not values:
        return [0, 1]
    lo, hi = math.floor(min(values)), math.ceil(max(values))
    width = max(1, math.ceil((hi - lo + 1) / most))
    return list(range(lo, hi + width + 1, width))


def _scores_plot(plt, folder, runs):
    fig, ax = plt.subplots(figsize=(WIDTH, HEIGHT))
    bins = _edges([s for _, _, samples in runs for s in samples["scores"]])
    for name, _, samples in runs:
        ax.hist(samples["scores"], bins=bins, density=True, histtype="step", linewidth=1.6, label=name)
    ax.set_xlabel("final score (every player of every game)")
    ax.set_ylabel("density")
    ax.set_title("Score distribution")
    ax.legend(fontsize=8)
    return _save(plt, fig, folder, "scores.png")


def _turns_plot(plt, folder, runs):
    fig, ax = plt.subplots(figsize=(WIDTH, HEIGHT))
    bins = _edges([t for _, _, samples in runs for t in samples["turns"]])
    for name, _, samples in runs:
        ax.hist(samples["turns"], bins=bins, density=True, histtype="step", linewidth=1.6, label=name)
    ax.set_xlabel("turns")
    ax.set_ylabel("density")
    ax.set_title("Game length")
    ax.legend(fontsize=8)
    return _save(plt, fig, folder, "turns.png")


def _win_rates_plot(plt, folder, runs):
    fig, axes = plt.subplots(1, 2, figsize=(WIDTH, HEIGHT), sharey=True)
    k = len(runs)
    for ax, key, field, title in ((axes[0], "win_rate_by_seat", "seat", "by player"),
                                  (axes[1], "win_rate_by_position", "position", "by turn position (1 = first)")):
        for j, (name, summary, _) in enumerate(runs):
            rows = summary[key]
            xs = [row[field] + (j - (k - 1) / 2) * 0.8 / max(k, 1) for row in rows]
            ys = [row["rate"] for row in rows]
            err = [[row["rate"] - row["low"] for row in rows], [row["high"] - row["rate"] for row in rows]]
            ax.errorbar(xs, ys, yerr=err, fmt="o", capsize=4, label=name)
        players = runs[0][1]["players"]
        ax.axhline(1.0 / players, linestyle="--", color="grey", linewidth=1)
        ax.set_xticks(range(players), [str(k + 1) for k in range(players)])  # players and positions from 1
        ax.set_xlabel("player" if field == "seat" else "turn position")
        ax.set_title(f"Win rate {title}")
    axes[0].set_ylabel("win rate (95% Wilson interval)")
    axes[1].legend(fontsize=8)
    return _save(plt, fig, folder, "win_rates.png")


def _categories_plot(plt, folder, runs):
    terms = []
    for _, summary, _ in runs:
        terms += [t for t in summary["score_by_category"] if t not in terms]
    fig, ax = plt.subplots(figsize=(WIDTH, HEIGHT))
    k = len(runs)
    width = 0.8 / max(k, 1)
    for j, (name, summary, _) in enumerate(runs):
        cats = summary["score_by_category"]
        means = [cats[t]["mean"] if t in cats else 0.0 for t in terms]
        errs = [1.96 * cats[t]["sd"] / math.sqrt(cats[t]["n"]) if t in cats and cats[t]["n"] > 1 else 0.0
                for t in terms]
        xs = [i + (j - (k - 1) / 2) * width for i in range(len(terms))]
        ax.bar(xs, means, width=width, yerr=errs, capsize=3, label=name)
    ax.set_xticks(range(len(terms)))
    ax.set_xticklabels(terms, rotation=20, ha="right", fontsize=8)
    ax.set_ylabel("mean points per player (95% interval)")
    ax.set_title("Points by scoring category")
    ax.legend(fontsize=8)
    return _save(plt, fig, folder, "categories.png")


def _differences_plot(plt, folder, comparison):
    fig, ax = plt.subplots(figsize=(WIDTH, HEIGHT))
    labels = []
    k = len(comparison)
    for j, (name, diffs) in enumerate(comparison):
        rows = [d for d in diffs if d["metric"].startswith(PROPORTION_METRICS)]
        if not labels:
            labels = [d["metric"] for d in rows]
        ys = [i + (j - (k - 1) / 2) * 0.8 / max(k, 1) for i in range(len(rows))]
        xs = [d["difference"] for d in rows]
        err = [[d["difference"] - d["low"] for d in rows], [d["high"] - d["difference"] for d in rows]]
        ax.errorbar(xs, ys, xerr=err, fmt="o", capsize=3, label=name)
    ax.axvline(0, color="grey", linestyle="--", linewidth=1)
    ax.set_yticks(range(len(labels)))
    ax.set_yticklabels(labels, fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("variant - base (paired, 95% interval)")
    ax.set_title("Differences of rates and shares")
    ax.legend(fontsize=8)
    return _save(plt, fig, folder, "differences.png")


def _cards_plot(plt, folder, summary, shown: int = 10):
    from .summary import reliable_impact

    impact = reliable_impact(summary["card_impact"])
    if not impact:
        return None
    rows = impact[:shown] + [r for r in impact[-shown:] if r not in impact[:shown]]
    fig, ax = plt.subplots(figsize=(WIDTH, max(HEIGHT, 0.25 * len(rows) + 1)))
    ys = list(range(len(rows)))
    xs = [r["difference"] for r in rows]
    err = [[r["difference"] - r["low"] for r in rows], [r["high"] - r["difference"] for r in rows]]
    ax.errorbar(xs, ys, xerr=err, fmt="o", capsize=3)
    ax.axvline(0, color="grey", linestyle="--", linewidth=1)
    ax.set_yticks(ys)
    ax.set_yticklabels([r["card"] for r in rows], fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("win rate used - not used (95% Newcombe interval)")
    ax.set_title("Card impact: strongest and weakest (cards used at least 30 times)")
    return _save(plt, fig, folder, "cards.png")


def _fmt(x, digits=3) -> str:
    if isinstance(x, float):
        if math.isnan(x) or math.isinf(x):
            return "–"
        return f"{x:.{digits}f}"
    return html.escape(str(x))


def _table(headers, rows) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{c if isinstance(c, str) else _fmt(c)}</td>" for c in row) + "</tr>"
                   for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _summary_html(name, s) -> str:
    e = html.escape
    parts = [f"<h2>{e(name)}</h2>",
             f"<p>{e(s['title'])}: {s['games']} games, {s['players']} players, bots {e(', '.join(s['bots']))}, "
             f"seed {s['seed']}" + (f", parameters {e(str(s['sets']))}" if s["sets"] else "") + ".</p>"]
    if s.get("interrupted"):
        parts.append(f"<p><b>Interrupted after {s['interrupted']['games']} of {s['interrupted']['of']} games "
                     f"(Ctrl-C)</b>: the figures are of the games played.</p>")
    rows = [[f"player {r['seat'] + 1}", r["rate"], f"{r['low']:.3f} – {r['high']:.3f}"] for r in s["win_rate_by_seat"]]
    rows += [[f"position {r['position'] + 1}", r["rate"], f"{r['low']:.3f} – {r['high']:.3f}"] for r in s["win_rate_by_position"]]
    rows += [[f"bot {e(b)}", r["rate"], f"{r['low']:.3f} – {r['high']:.3f}"] for b, r in s["win_rate_by_bot"].items()]
    rows += [[f"team {e(r['team'])}", r["rate"], f"{r['low']:.3f} – {r['high']:.3f}"] for r in s.get("win_rate_by_team", ())]
    parts.append(_table(["who", "win rate", "95% interval"], rows))
    coop = s.get("cooperative")
    if coop:
        d = coop["shared_score"]
        parts.append(f"<p>Shared score {d['mean']:.2f} ({d['low']:.2f} – {d['high']:.2f}, 95% interval) "
                     f"out of {e(str(coop['best_score']))}.</p>")
    against = s.get("against_non_deciding")
    if against:
        w = against["win_rate"]
        parts.append(f"<p>Players that never decide (the rules play them): "
                     f"{e(', '.join(str(seat + 1) for seat in against['seats']))}; the deciding players win {w['rate']:.3f} ({w['low']:.3f} – {w['high']:.3f}) of the games "
                     f"against them.</p>")
    fpa = s["first_player_advantage"]
    balance = ("No first-player advantage or balance (fewer than two players decide)" if fpa is None else
               f"First-player advantage {fpa['advantage']:+.3f} ({fpa['low']:+.3f} to {fpa['high']:+.3f}); "
               f"balance {s['balance']:.3f}")
    parts.append(f"<p>{balance}; decisiveness {s['decisiveness']:.3f}; {e(s['ties'])}.</p>")
    stats = [("score", s["score"]), ("winning margin", s["winning_margin"]), ("turns", s["turns"]),
             ("decisions", s["decisions"])] + [(f"points: {t}", d) for t, d in s["score_by_category"].items()]
    parts.append(_table(["", "mean", "sd", "min", "5%", "25%", "median", "75%", "95%", "max"],
                        [[e(k), d["mean"], d["sd"], d["min"], d["q05"], d["q25"], d["median"], d["q75"], d["q95"], d["max"]]
                         for k, d in stats]))
    cov = s.get("coverage")
    if cov:
        parts.append("<h3>Coverage</h3>")
        for key, title in (("rules_never_run", "Rules never run"), ("cards_never_used", "Cards never used"),
                           ("cards_only_read", "Cards only read by the rules"),
                           ("cards_never_in_play", "Cards never in play"), ("terms_never_scored", "Score terms never scored")):
            items = cov[key]
            parts.append(f"<p><b>{title}</b> ({len(items)}): {e(', '.join(items)) if items else 'none'}</p>")
    return "\n".join(parts)


CSS = """body{font-family:sans-serif;max-width:70em;margin:2em auto;color:#222}
table{border-collapse:collapse;margin:1em 0;font-size:90%}td,th{border:1px solid #ccc;padding:.25em .6em;text-align:right}
th{background:#f3f3f3}td:first-child{text-align:left}img{max-width:100%;display:block;margin:1em 0}
.changed{color:#a40000;font-weight:bold}"""


def write_report(folder, runs: list, comparison: list | None = None, settings: dict | None = None,
                 title: str = "Simulation report") -> Path:
    """Write report.html and its PNG plots into `folder`; return the HTML path.
    `comparison` is a list of (variant name, differences) for a compare."""
    plt = _pyplot()
    folder = Path(folder)
    files.prepare_folder(folder, "the report")
    images = [
        (_scores_plot(plt, folder, runs), "Distribution of final scores"),
        (_win_rates_plot(plt, folder, runs), "Win rate by player and by turn position, with 95% Wilson intervals"),
        (_turns_plot(plt, folder, runs), "Distribution of game length in turns"),
        (_categories_plot(plt, folder, runs), "Mean points per scoring category"),
    ]
    if comparison:
        images.append((_differences_plot(plt, folder, comparison), "Paired differences of rates and shares"))
    cards = _cards_plot(plt, folder, runs[0][1])
    if cards:
        images.append((cards, f"Card impact in {runs[0][0]}"))
    from .compare import ALPHA, decimals, interval_text, p_text

    e = html.escape
    parts = [f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{e(title)}</title><style>{CSS}</style></head><body>",
             f"<h1>{e(title)}</h1>"]
    if settings and settings.get("design"):
        parts.append(f"<p>{e(settings['design'])}.</p>")
    for name, diffs in comparison or []:
        parts.append(f"<h2>{e(name)} against {e(runs[0][0])}</h2>")
        parts.append(_table(["metric", "base", "variant", "difference", "95% interval", "p (Holm)", "verdict"], [
            [e(d["label"]), d["base"], d["variant"], _fmt(d["difference"], decimals(d["difference"])),
             interval_text(d, "–", "–"), e(p_text(d["p_holm"], (settings or {}).get("alpha", ALPHA))),
             f"<span class='changed'>{e(d['verdict'])}</span>" if d["verdict"].startswith("changed") else e(d["verdict"])]
            for d in diffs]))
    for src, caption in images:
        parts.append(f"<figure><img src='{e(src)}' alt='{e(caption)}'><figcaption>{e(caption)}</figcaption></figure>")
    for name, summary, _ in runs:
        parts.append(_summary_html(name, summary))
    parts.append("</body></html>")
    path = folder / "report.html"
    files.write_text(path, "\n".join(parts), "the report")
    return path
