"""The summary of a sweep: win rates with intervals, score and length
statistics, balance, coverage and card impact.

A `Tally` takes game records one at a time, in game order, and keeps only
counts and compact arrays of numbers (scores, lengths), so a sweep of a
million games does not hold a million records in memory.
"""
from __future__ import annotations

from array import array

from .stats import describe, mean_interval, newcombe, proportion

TIES = ("a win shared by k players counts 1/k for each of them; "
        "a game the rules end as lost for everyone is a win for nobody")
TEAM = ("the team wins every game the rules do not end as lost for everyone; "
        "a game the rules end as won together is a whole win for every seat; "
        "top score: the best score of the team (1/k for each of k tied)")
COOPERATIVE = ("the shared score of a `cooperative score` game: the mean of the players' scores, "
               "0 in a game the rules end as lost; mean with its Student t 95% interval")
TEAMS = ("a team's win rate over the games it played (a win shared by k teams counts 1/k for each); "
         "seats: the team's seats when they were the same in every game")
SUMMARY_FORMAT = "rules-simulate-summary/1"  # schemas/simulate-summary.schema.json
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


def team_name(value) -> str:
    """A team of `teams by` as a summary names it: its value, as text."""
    return value if isinstance(value, str) else ("yes" if value else "no") if isinstance(value, bool) else str(value)


def team_shares(record: dict) -> dict:
    """Each team's share of the win in a game of `teams by` (empty without
    teams): 1/k for each of k teams of winners, 1 for every team in a game
    won together."""
    if "teams" not in record:
        return {}
    names = [team_name(v) for v in record["teams"]]
    if record.get("outcome") == "won":
        return dict.fromkeys(names, 1.0)
    won = {names[w] for w in record["winners"]}
    return {name: (1.0 / len(won) if name in won else 0.0) for name in names}


def position(record: dict, seat: int) -> int:
    """The seat's place in turn order: 0 for the player who played first."""
    n = len(record["scores"])
    return (seat - record["first_player"]) % n


def turn_order(first: int, seats: list, players: int) -> list:
    """`seats` in turn order from the first player: the seat at position 0 first.

    >>> turn_order(2, [0, 1, 2], 3), turn_order(1, [0, 2], 3)
    ([2, 0, 1], [2, 0])
    """
    chosen = set(seats)
    return [(first + k) % players for k in range(players) if (first + k) % players in chosen]


def deciding_seats(decided: list) -> list:
    """The seats that made a decision in some game (`decided[seat]` counts
    those games); every seat if none ever did, so that a game without
    decisions is not read as a game of bystanders."""
    seats = [s for s, k in enumerate(decided) if k]
    return seats or list(range(len(decided)))


class Tally:
    """Running totals of a sweep; `add(record)` in game order, then `summary()`.

    Win shares are kept by (first player, seat), so that turn positions can
    be counted among the seats that decide, which are known only at the end:
    a seat that never makes a decision (one the rules play alone) has no
    turn position to compare and no bot that chose anything."""

    def __init__(self, meta: dict):
        self.meta = meta
        players = self.players = meta["players"]
        self.terms = list(meta["terms"])
        self.card_ids = list(meta["card_ids"])
        self.n = 0
        self.wins_by_first = [[0.0] * players for _ in range(players)]  # [first player][seat]
        self.top_by_first = [[0.0] * players for _ in range(players)]  # the best score of the team, likewise
        self.decided = [0] * players  # games in which the seat made a decision
        self.bot_seat: dict = {}  # (bot, seat) -> [win shares, games]
        self.decisive = 0
        self.lost = 0
        self.scores = array("d")
        self.margins = array("d")
        self.turns = array("d")
        self.decisions = array("d")
        self.by_term = {t: array("d") for t in self.terms}
        self.term_totals = dict.fromkeys(self.terms, 0.0)
        self.points_total = 0.0
        # card impact, by seat
        self.used_n = [dict.fromkeys(self.card_ids, 0) for _ in range(players)]
        self.used_w = [dict.fromkeys(self.card_ids, 0.0) for _ in range(players)]
        self.seat_w = [0.0] * players
        self.games_with = dict.fromkeys(self.card_ids, 0)
        # coverage
        self.rules = {name: [0, 0] for name in meta.get("rule_names", [])}
        self.unplayed = dict.fromkeys(self.card_ids, 0)
        self.read_games = dict.fromkeys(self.card_ids, 0)
        self.term_games = dict.fromkeys(self.terms, 0)
        # what the players play for: the shared score, the teams
        self.shared = array("d")
        self.best = None
        self.team_wins: dict = {}  # team name -> [win shares, games]
        self.team_seats: dict = {}  # team name -> the seats it had, each way seen
        self.hands = [0, 0.0]  # hands with a winner, the hand's starter's win shares

    def add(self, r: dict) -> None:
        self.n += 1
        s = shares(r)
        players = self.players
        teams = team_shares(r)
        if (sum(1 for v in teams.values() if v) if teams else len(r.get("top_scorers", r["winners"]))) == 1:
            self.decisive += 1  # one winner, or with teams one winning team
        if r.get("lost"):
            self.lost += 1
        first = r["first_player"]
        top = r.get("top_scorers", r["winners"])
        for seat in top:
            self.top_by_first[first][seat] += 1.0 / len(top)
        breakdown = r["breakdown"]
        for seat in range(players):
            self.wins_by_first[first][seat] += s[seat]
            if r["decisions"][seat]:
                self.decided[seat] += 1
            entry = self.bot_seat.setdefault((r["bots"][seat], seat), [0.0, 0])
            entry[0] += s[seat]
            entry[1] += 1
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
        self._add_cards(r, s)
        self._add_objective(r)
        self._add_hands(r)

    def _add_hands(self, r: dict) -> None:
        for starter, winners in r.get("hands", ()):
            if winners:
                self.hands[0] += 1
                self.hands[1] += 1.0 / len(winners) if starter in winners else 0.0

    def by_hand(self) -> dict:
        """The first-player advantage hand by hand, for rules that start each
        hand (a hand's winner starts the next, say): the share of hands won by
        the player who started them, minus the fair share 1/n (the hands no
        score rose in left out)."""
        hands, wins = self.hands
        rate = proportion(wins, hands)
        fair = 1.0 / self.players
        return {"hands": hands, "win_rate": rate["rate"], "fair_share": fair, "advantage": rate["rate"] - fair,
                "low": rate["low"] - fair, "high": rate["high"] - fair}

    def _add_objective(self, r: dict) -> None:
        if "shared_score" in r:
            self.shared.append(r["shared_score"])
            self.best = r["best_score"]
        for name, share in team_shares(r).items():
            entry = self.team_wins.setdefault(name, [0.0, 0])
            entry[0] += share
            entry[1] += 1
            self.team_seats.setdefault(name, set()).add(
                tuple(seat for seat, v in enumerate(r["teams"]) if team_name(v) == name))

    def objective(self, deciding: list) -> dict:
        """What the players play for, for the rules that declare it: how the
        team did in games won or lost together, the shared score (`cooperative
        score`), the win rate of each team (`teams by`); and the first-player
        advantage hand by hand where the rules start hands."""
        out: dict = {}
        if self.meta.get("team") and not self.shared:  # (a shared score says how the team did)
            out["team"] = self.team(deciding)
        if self.meta.get("hands"):
            out["first_player_advantage_by_hand"] = self.by_hand()
        if self.shared:
            mean, low, high = mean_interval(self.shared)
            out["cooperative"] = {"meaning": COOPERATIVE, "best_score": self.best,
                                  "shared_score": {**describe(self.shared), "low": low, "high": high}}
        if self.team_wins:
            out["win_rate_by_team"] = [
                {"team": name, "seats": list(next(iter(seats))) if len(seats) == 1 else None,
                 **proportion(wins, games)}
                for name, (wins, games) in sorted(self.team_wins.items()) for seats in [self.team_seats[name]]]
            out["teams_meaning"] = TEAMS
        return out

    def _add_cards(self, r: dict, s: list) -> None:
        seen = set()
        for seat, cards in enumerate(r["cards"]):
            self.seat_w[seat] += s[seat]
            used_n, used_w = self.used_n[seat], self.used_w[seat]
            for c in cards:
                used_n[c] += 1
                used_w[c] += s[seat]
                seen.add(c)
        for c in seen:
            self.games_with[c] += 1
        for name, count in r.get("coverage", {}).items():
            entry = self.rules.setdefault(name, [0, 0])
            entry[0] += count
            entry[1] += 1
        for c in r.get("never_in_play", ()):
            self.unplayed[c] += 1
        for c in r.get("read", ()):
            self.read_games[c] += 1

    # -------------------------------------------------------------- by seat
    def by_seat(self, matrix) -> list:
        return [sum(row[seat] for row in matrix) for seat in range(self.players)]

    def by_position(self, matrix, deciding: list) -> list:
        """Win shares by turn position among the deciding seats."""
        out = [0.0] * len(deciding)
        for first, row in enumerate(matrix):
            for pos, seat in enumerate(turn_order(first, deciding, self.players)):
                out[pos] += row[seat]
        return out

    def bots(self, deciding: list) -> dict:
        """Win rates by bot over the deciding seats, when more than one bot
        played them (with one bot the rate is the deciding seats' own)."""
        totals: dict = {}
        for (bot, seat), (wins, games) in self.bot_seat.items():
            if seat in deciding:
                entry = totals.setdefault(bot, [0.0, 0])
                entry[0] += wins
                entry[1] += games
        if len(totals) < 2:
            return {}
        return {b: proportion(w, g) for b, (w, g) in sorted(totals.items())}

    def balance(self, pos_shares: list, seat_shares: list, deciding: list, fair: float) -> dict:
        """First-player advantage and balance (by position and by seat) among
        the deciding seats; None where fewer than two seats decide."""
        n = self.n
        if len(deciding) < 2 or not n:
            return {"first_player_advantage": None, "balance": None, "seat_balance": None}
        first = proportion(pos_shares[0], n)
        rates_pos = [w / n for w in pos_shares]
        rates_seat = [seat_shares[s] / n for s in deciding]
        return {
            "first_player_advantage": {
                "win_rate": first["rate"], "fair_share": fair, "advantage": first["rate"] - fair,
                "low": first["low"] - fair, "high": first["high"] - fair,
            },
            "balance": 1.0 - (max(rates_pos) - min(rates_pos)),
            "seat_balance": 1.0 - (max(rates_seat) - min(rates_seat)),
        }

    def summary(self, seconds: float | None = None) -> dict:
        meta, n, players = self.meta, self.n, self.players
        deciding = deciding_seats(self.decided)
        bystanders = [s for s in range(players) if s not in deciding]
        seat_wins = self.by_seat(self.wins_by_first)
        pos_wins = self.by_position(self.wins_by_first, deciding)
        # Balance between seats: of the win, or in rules whose players win or
        # lose together (where every seat shares the team's result), of the top score.
        matrix = self.top_by_first if meta.get("team") else self.wins_by_first
        seat_shares, pos_shares = self.by_seat(matrix), self.by_position(matrix, deciding)
        deciding_share = sum(seat_shares[s] for s in deciding) / n if n else 0.0
        fair = 1.0 / players if not bystanders else deciding_share / len(deciding)
        out = {
            "format": SUMMARY_FORMAT,
            "rules": meta["rules"], "title": meta["title"], "sets": meta["sets"],
            "games": n, "players": players, "bots": meta["bots"], "seed": meta["seed"],
            "ties": TIES,
            "win_rate_by_seat": [{"seat": seat, "decides": seat in deciding, **proportion(seat_wins[seat], n)}
                                 for seat in range(players)],
            "win_rate_by_bot": self.bots(deciding),
            "win_rate_by_position": ([{"position": pos, **proportion(pos_wins[pos], n)} for pos in range(len(deciding))]
                                     if len(deciding) > 1 else []),
            "non_deciding_seats": bystanders,
            "balance_of": "top score" if meta.get("team") else "win",
            **self.balance(pos_shares, seat_shares, deciding, fair),
            "decisiveness": self.decisive / n if n else float("nan"),
            "lost_by_all": proportion(self.lost, n),
            "score": describe(self.scores),
            "winning_margin": describe(self.margins),
            "score_by_category": {t: describe(self.by_term[t]) for t in self.terms},
            "category_share": {t: (self.term_totals[t] / self.points_total if self.points_total else 0.0)
                               for t in self.terms},
            "turns": describe(self.turns),
            "decisions": describe(self.decisions),
            "card_impact": self.card_impact(deciding),
        }
        if bystanders:
            out["against_non_deciding"] = {
                "seats": bystanders, "deciding_seats": deciding,
                "win_rate": proportion(sum(seat_wins[s] for s in deciding), n),
                "meaning": "the share of games won by the seats that decide (1/k of a game shared by k winners)",
            }
        out.update(self.objective(deciding))
        if seconds is not None:
            out["seconds"] = seconds
            out["games_per_second"] = n / seconds if seconds > 0 else float("inf")
        if meta.get("coverage"):
            out["coverage"] = self.coverage()
        return out

    def team(self, deciding: list) -> dict:
        """For rules whose games can end won or lost together: how often the
        team won (was not lost), and who had the best score of the team."""
        n = self.n
        top_seat = self.by_seat(self.top_by_first)
        top_pos = self.by_position(self.top_by_first, deciding)
        return {
            "meaning": TEAM,
            "win_rate": proportion(n - self.lost, n),
            "top_score_by_seat": [{"seat": s, **proportion(top_seat[s], n)} for s in range(self.players)],
            "top_score_by_position": [{"position": p, **proportion(top_pos[p], n)} for p in range(len(deciding))],
        }

    def card_impact(self, deciding: list) -> list:
        """For each card: the win rate of the deciding players who used it
        (chose it at a decision or held it at the end) against those who did
        not, over their player-games, with Newcombe 95% intervals on the
        difference; strongest first. An association, not a cause: strong
        players also use more cards."""
        names = dict(zip(self.meta["card_ids"], self.meta["card_names"]))
        total_n = self.n * len(deciding)
        total_w = sum(self.seat_w[s] for s in deciding)
        out = []
        for c in self.card_ids:
            un = sum(self.used_n[s][c] for s in deciding)
            uw = sum(self.used_w[s][c] for s in deciding)
            on, ow = total_n - un, total_w - uw
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
        read = dict(self.read_games)
        # Cards still where the rules put every card before setup, in every game.
        never_in_play = [c for c, k in self.unplayed.items() if k == self.n and cards[c] == 0 and read[c] == 0]
        return {
            "rules": rules,
            "rules_never_run": [name for name, e in rules.items() if e["runs"] == 0],
            "cards": cards,
            "cards_read": read,
            "cards_never_used": [c for c in self.card_ids if cards[c] == 0 and read[c] == 0 and c not in never_in_play],
            "cards_only_read": [c for c in self.card_ids if cards[c] == 0 and read[c] > 0],
            "cards_never_in_play": never_in_play,
            "terms": dict(self.term_games),
            "terms_never_scored": [t for t, k in self.term_games.items() if k == 0],
            "meaning": "a rule counts when it runs; a card counts when a player chose it at a decision or held it "
                       "at the end (cards), or when the rules read one of its fields while it was out of the zone "
                       "every card starts in (cards_read: e.g. a card a score term reads); a card only read was "
                       "never chosen nor held; a card never in play stayed in the starting zone (left out by "
                       "setup) in every game; a score term counts when it gave anyone a non-zero score",
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
