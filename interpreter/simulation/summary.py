"""The summary of a sweep: win rates with intervals, score and length
statistics, balance, coverage and card impact.

A `Tally` takes game records one at a time, in game order, and keeps only
counts and compact arrays of numbers (scores, lengths), so a sweep of a
million games does not hold a million records in memory.
"""
from __future__ import annotations

from array import array

from .stats import describe, newcombe, proportion

TIES = ("a win shared by k players counts 1/k for each of them; "
        "a game the rules end as lost for everyone is a win for nobody")
TEAM = ("the team wins every game the rules do not end as lost for everyone; "
        "a game the rules end as won together is a whole win for every seat; "
        "top score: the best score of the team (1/k for each of k tied)")
MIN_USES = 30  # cards used (or not used) fewer times are left out of printed impact lists


def reliable_impact(impact: list, min_uses: int = MIN_USES) -> list:
    """The card impact rows with enough player-games on both sides to show."""
    return [r for r in impact if r["used"] >= min_uses and r["win_rate_not_used"]["games"] >= min_uses]


def shares(record: dict) -> list:
    """Each seat's share of the win: 1/k for each of k winners, else 0; every
    seat wins whole in a game won together."""
    if record.get("outcome") == "won":
        return [1.0] * len(record["scores"])
    winners = record["winners"]
    k = len(winners)
    out = [0.0] * len(record["scores"])
    for w in winners:
        out[w] = 1.0 / k
    return out


def position(record: dict, seat: int) -> int:
    """The seat's place in turn order: 0 for the player who played first."""
    n = len(record["scores"])
    return (seat - record["first_player"]) % n


class Tally:
    """Running totals of a sweep; `add(record)` in game order, then `summary()`."""

    def __init__(self, meta: dict):
        self.meta = meta
        players = self.players = meta["players"]
        self.terms = list(meta["terms"])
        self.card_ids = list(meta["card_ids"])
        self.n = 0
        self.seat_wins = [0.0] * players
        self.pos_wins = [0.0] * players
        self.bot_wins: dict = {}
        self.bot_games: dict = {}
        self.decisive = 0
        self.lost = 0
        self.top_seat = [0.0] * players  # best score of the team, for rules that end won or lost together
        self.top_pos = [0.0] * players
        self.scores = array("d")
        self.margins = array("d")
        self.turns = array("d")
        self.decisions = array("d")
        self.by_term = {t: array("d") for t in self.terms}
        self.term_totals = dict.fromkeys(self.terms, 0.0)
        self.points_total = 0.0
        # card impact
        self.used_n = dict.fromkeys(self.card_ids, 0)
        self.used_w = dict.fromkeys(self.card_ids, 0.0)
        self.games_with = dict.fromkeys(self.card_ids, 0)
        self.total_w = 0.0
        # coverage
        self.rules = {name: [0, 0] for name in meta.get("rule_names", [])}
        self.unplayed = dict.fromkeys(self.card_ids, 0)
        self.term_games = dict.fromkeys(self.terms, 0)

    def add(self, r: dict) -> None:
        self.n += 1
        s = shares(r)
        players = self.players
        if len(r.get("top_scorers", r["winners"])) == 1:
            self.decisive += 1
        if r.get("lost"):
            self.lost += 1
        first = r["first_player"]
        self._add_top(r.get("top_scorers", r["winners"]), first)
        breakdown = r["breakdown"]
        for seat in range(players):
            self.seat_wins[seat] += s[seat]
            self.pos_wins[(seat - first) % players] += s[seat]
            bot = r["bots"][seat]
            self.bot_wins[bot] = self.bot_wins.get(bot, 0.0) + s[seat]
            self.bot_games[bot] = self.bot_games.get(bot, 0) + 1
        for t in self.terms:
            column = self.by_term[t]
            total = 0
            for b in breakdown:
                v = b.get(t, 0)
                column.append(v)
                total += v
            self.term_totals[t] += total
            if any(b.get(t, 0) for b in breakdown):
                self.term_games[t] += 1
        scores = r["scores"]
        self.scores.extend(scores)
        self.points_total += sum(scores)
        ordered = sorted(scores, reverse=True)
        self.margins.append(ordered[0] - ordered[1] if len(ordered) > 1 else 0)
        self.turns.append(r["turns"])
        self.decisions.append(sum(r["decisions"]))
        seen = set()
        for seat, cards in enumerate(r["cards"]):
            self.total_w += s[seat]
            for c in cards:
                self.used_n[c] += 1
                self.used_w[c] += s[seat]
                seen.add(c)
        for c in seen:
            self.games_with[c] += 1
        for name, count in r.get("coverage", {}).items():
            entry = self.rules.setdefault(name, [0, 0])
            entry[0] += count
            entry[1] += 1
        for c in r.get("never_in_play", ()):
            self.unplayed[c] += 1

    def _add_top(self, top: list, first: int) -> None:
        for seat in top:
            self.top_seat[seat] += 1.0 / len(top)
            self.top_pos[(seat - first) % self.players] += 1.0 / len(top)

    def summary(self, seconds: float | None = None) -> dict:
        meta, n, players = self.meta, self.n, self.players
        by_seat = [{"seat": seat, **proportion(self.seat_wins[seat], n)} for seat in range(players)]
        by_position = [{"position": pos, **proportion(self.pos_wins[pos], n)} for pos in range(players)]
        # Balance between seats: of the win, or in rules whose players win or
        # lose together (where every seat shares the team's result), of the top score.
        seat_shares, pos_shares = (self.top_seat, self.top_pos) if meta.get("team") else (self.seat_wins, self.pos_wins)
        fair = 1.0 / players
        first = proportion(pos_shares[0], n)
        rates_pos = [w / n if n else 0.0 for w in pos_shares]
        rates_seat = [w / n if n else 0.0 for w in seat_shares]
        out = {
            "rules": meta["rules"], "title": meta["title"], "sets": meta["sets"],
            "games": n, "players": players, "bots": meta["bots"], "seed": meta["seed"],
            "ties": TIES,
            "win_rate_by_seat": by_seat,
            "win_rate_by_bot": {b: proportion(self.bot_wins[b], self.bot_games[b]) for b in sorted(self.bot_wins)},
            "win_rate_by_position": by_position,
            "first_player_advantage": {
                "win_rate": first["rate"], "fair_share": fair, "advantage": first["rate"] - fair,
                "low": first["low"] - fair, "high": first["high"] - fair,
            },
            "balance_of": "top score" if meta.get("team") else "win",
            "balance": 1.0 - (max(rates_pos) - min(rates_pos)) if n else float("nan"),
            "seat_balance": 1.0 - (max(rates_seat) - min(rates_seat)) if n else float("nan"),
            "decisiveness": self.decisive / n if n else float("nan"),
            "lost_by_all": proportion(self.lost, n),
            "score": describe(self.scores),
            "winning_margin": describe(self.margins),
            "score_by_category": {t: describe(self.by_term[t]) for t in self.terms},
            "category_share": {t: (self.term_totals[t] / self.points_total if self.points_total else 0.0)
                               for t in self.terms},
            "turns": describe(self.turns),
            "decisions": describe(self.decisions),
            "card_impact": self.card_impact(),
        }
        if meta.get("team"):
            out["team"] = self.team()
        if seconds is not None:
            out["seconds"] = seconds
            out["games_per_second"] = n / seconds if seconds > 0 else float("inf")
        if meta.get("coverage"):
            out["coverage"] = self.coverage()
        return out

    def team(self) -> dict:
        """For rules whose games can end won or lost together: how often the
        team won (was not lost), and who had the best score of the team."""
        n, players = self.n, self.players
        return {
            "meaning": TEAM,
            "win_rate": proportion(n - self.lost, n),
            "top_score_by_seat": [{"seat": s, **proportion(self.top_seat[s], n)} for s in range(players)],
            "top_score_by_position": [{"position": p, **proportion(self.top_pos[p], n)} for p in range(players)],
        }

    def card_impact(self) -> list:
        """For each card: the win rate of the players who used it (chose it at
        a decision or held it at the end) against those who did not, over all
        player-games, with Newcombe 95% intervals on the difference; strongest
        first. An association, not a cause: strong players also use more cards."""
        names = dict(zip(self.meta["card_ids"], self.meta["card_names"]))
        total_n = self.n * self.players
        out = []
        for c in self.card_ids:
            un, uw = self.used_n[c], self.used_w[c]
            on, ow = total_n - un, self.total_w - uw
            if un == 0 or on == 0:
                continue
            d, low, high = newcombe(uw, un, ow, on)
            out.append({
                "card": c, "name": names.get(c, c), "used": un, "games_used": self.games_with[c],
                "win_rate_used": proportion(uw, un), "win_rate_not_used": proportion(ow, on),
                "difference": d, "low": low, "high": high,
                "significant": low > 0 or high < 0,
            })
        out.sort(key=lambda x: (-x["difference"], x["card"]))
        return out

    def coverage(self) -> dict:
        """How often each rule ran and each card was used; what never was."""
        rules = {name: {"runs": runs, "games": games} for name, (runs, games) in self.rules.items()}
        cards = dict(self.games_with)
        # Cards still where the rules put every card before setup, in every game.
        never_in_play = [c for c, k in self.unplayed.items() if k == self.n and cards[c] == 0]
        return {
            "rules": rules,
            "rules_never_run": [name for name, e in rules.items() if e["runs"] == 0],
            "cards": cards,
            "cards_never_used": [c for c, k in cards.items() if k == 0 and c not in never_in_play],
            "cards_never_in_play": never_in_play,
            "terms": dict(self.term_games),
            "terms_never_scored": [t for t, k in self.term_games.items() if k == 0],
            "meaning": "a rule counts when it runs; a card counts when a player chose it at a decision "
                       "or held it at the end; a card never in play stayed in the zone the rules "
                       "start every card in (left out by setup) in every game; a score term counts "
                       "when it gave anyone a non-zero score",
        }


def summarize(records: list, meta: dict, seconds: float | None = None) -> dict:
    """The summary of a list of records (see `Tally`)."""
    tally = Tally(meta)
    for r in records:
        tally.add(r)
    return tally.summary(seconds)


def jsonable(value):
    """The value with NaN and infinities as None, so it is strict JSON."""
    if isinstance(value, float):
        return value if value == value and value not in (float("inf"), float("-inf")) else None
    if isinstance(value, dict):
        return {k: jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    return value
