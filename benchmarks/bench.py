"""Speed benchmark of the interpreter and its bots (not a test: it prints figures).

    python benchmarks/bench.py                 # every figure, medians of 5 runs
    python benchmarks/bench.py --json          # the same as JSON
    python benchmarks/bench.py --repeat 3 --games 200 --no-bots

Every figure is the median of --repeat runs. The interpreter is compared, in
the same run, with the hand-written Catalyst engine of
benchmarks/baseline_catalyst.py, which plays the very same games (same rules,
same seeds, same random bots: tests/test_baseline.py checks it), so the
ratio is the interpreter's overhead alone; each run times both engines one
after the other and the reported ratio is the median of the runs' ratios
(machines here are noisy: ratios hold, absolute times drift). The shared
reference engine (../shared/bench/handwritten_reference.py, outside the
repository: a simplified Catalyst-like game) is run too when it is present;
when it is not, the output says so.

Figures: random-bot games/s with 2 and 4 players (a game played to the end
and scored), decisions/s; greedy-bot 2-player games/s (the same games in
every run, after an untimed game of another seed, and the same from a cold
start, as a process's first games); `observation(player)`
(at a new position, and asked again) and `clone()` in microseconds; `catalyst check` wall time (with the modules' bytecode kept, as an
installed package has it, and without; and a bare Python's start for scale); ISMCTS simulations/s
with random rollouts to the end from a 2-player opening, for the `mcts` bot
(horizon=0) and for OpenSpiel's ISMCTS through the adapter (when open_spiel is
installed); the speed-up of `simulate --jobs 2` over `--jobs 1`, next to what
the machine itself gives two processes (a plain Python loop run twice, one
after the other and then at the same time: on a shared virtual machine two
processes may not get two whole cores); and, per bot,
decisions/s and the time per choice. How cost grows with the deck, the players
and the length of a game is benchmarks/growth.py.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import baseline_catalyst as baseline  # noqa: E402
from interpreter import load_game  # noqa: E402
from interpreter.agents import make_agent, make_agents  # noqa: E402
from interpreter.play import play_game, world_sampler  # noqa: E402
from interpreter.simulation import simulate  # noqa: E402

RULES = ROOT / "rules" / "catalyst.rules"
REFERENCE = ROOT.parent / "shared" / "bench" / "handwritten_reference.py"
BOTS = ("random", "greedy", "mcts:200")


def median_of(fn, repeat):
    return statistics.median(fn() for _ in range(repeat))


# ---------------------------------------------------------------- random games
def games_per_second(game, players, games):
    """Random-bot games of seeds 0..games-1, played to the end and scored:
    (games/s, decisions/s, games per CPU second)."""
    start, cpu = time.perf_counter(), time.process_time()
    decisions = 0
    for seed in range(games):
        st = play_game(game, players, seed, make_agents("random", players, seed))
        st.scores()
        decisions += st.decisions
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    return games / elapsed, decisions / elapsed, games / cpu


def baseline_games_per_second(cards, players, games, rounds=4):
    """The same games on the hand-written engine, each played `rounds` times
    (it is fast: a longer run is a steadier one): (games/s, games per CPU second)."""
    start, cpu = time.perf_counter(), time.process_time()
    for _ in range(rounds):
        for seed in range(games):
            baseline.play(cards, players, seed, baseline.random_chooser(players, seed))
    return rounds * games / (time.perf_counter() - start), rounds * games / (time.process_time() - cpu)


def reference_games_per_second(players, games):
    out = subprocess.run([sys.executable, str(REFERENCE), str(players), str(games)],
                         capture_output=True, text=True, check=True).stdout
    return float(dict(part.split("=") for part in out.split())["games/s"])


def engine_figures(game, players, args, figures):
    """Each run times the interpreter, the baseline and (when present) the
    shared reference one after the other; ratios are taken within a run."""
    cards = baseline.Cards()
    runs = []
    for _ in range(args.repeat):
        rate, decisions, rate_cpu = games_per_second(game, players, args.games)
        base, base_cpu = baseline_games_per_second(cards, players, args.games)
        ref = reference_games_per_second(players, args.games * 4) if REFERENCE.exists() else None
        runs.append((rate, decisions, base, ref, rate_cpu, base_cpu))
    figures[f"games_per_s_{players}p"] = statistics.median(r[0] for r in runs)
    figures[f"decisions_per_s_{players}p"] = statistics.median(r[1] for r in runs)
    figures[f"baseline_games_per_s_{players}p"] = statistics.median(r[2] for r in runs)
    figures[f"ratio_to_baseline_{players}p"] = statistics.median(r[2] / r[0] for r in runs)
    # the same ratio in CPU time, which other work on the machine disturbs less
    figures[f"ratio_to_baseline_{players}p_cpu"] = statistics.median(r[5] / r[4] for r in runs)
    if REFERENCE.exists():
        figures[f"reference_games_per_s_{players}p"] = statistics.median(r[3] for r in runs)
        figures[f"ratio_to_reference_{players}p"] = statistics.median(r[3] / r[0] for r in runs)


# ---------------------------------------------------------------- state operations
def midgame(game, players=2, seed=1, decisions=20):
    st = game.new_initial_state(players, seed)
    for _ in range(decisions):
        st.apply_action(st.legal_actions()[0])
    return st


def clone_microseconds(game, count=5000):
    st = midgame(game)
    start = time.perf_counter()
    for _ in range(count):
        st.clone()
    return (time.perf_counter() - start) / count * 1e6


def observation_microseconds(game, count=2000, batch=50):
    """`observation(player)` at a position not yet observed (a state keeps the
    observations made of its position: each call here is on a fresh clone,
    made before the clock starts), alternating the two players. The clones
    are made and observed `batch` at a time, so the figure is not that of a
    heap holding thousands of kept observations (which only a benchmark has)."""
    st = midgame(game)
    elapsed = 0.0
    for _ in range(count // batch):
        states = [st.clone() for _ in range(batch)]
        start = time.perf_counter()
        for i, s in enumerate(states):
            s.observation(i % 2)
        elapsed += time.perf_counter() - start
    return elapsed / (count // batch * batch) * 1e6


def observation_again_microseconds(game, count=20000):
    """`observation(player)` asked again at the same position (the kept one)."""
    st = midgame(game)
    st.observation(0), st.observation(1)
    start = time.perf_counter()
    for i in range(count):
        st.observation(i % 2)
    return (time.perf_counter() - start) / count * 1e6


def _check_env(pycache: str) -> dict:
    """The environment of `catalyst check` as a user has it: Python may keep
    the bytecode of the modules it imports (some environments forbid it,
    PYTHONDONTWRITEBYTECODE, and then every run compiles every module anew);
    it is kept in a folder of its own, outside the repository."""
    env = dict(os.environ, PYTHONPYCACHEPREFIX=pycache)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def check_wall_seconds(env=None):
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "cli.main", "check", str(RULES)], cwd=ROOT, check=True, capture_output=True,
                   env=env)
    return time.perf_counter() - start


def python_start_seconds():
    """The wall time of a Python that does nothing: the part of any command no code of ours can save."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    return time.perf_counter() - start


def _spin(_=None) -> int:
    total = 0
    for i in range(3_000_000):
        total += i * i
    return total


def machine_speedup_two_processes() -> float:
    """How much faster two copies of a CPU-bound Python loop finish on two
    processes than one after the other: the ceiling of `--jobs 2` here."""
    import multiprocessing

    start = time.perf_counter()
    _spin(), _spin()
    alone = time.perf_counter() - start
    with multiprocessing.get_context("fork").Pool(2) as pool:
        pool.map(_spin, [0, 1])  # the workers started before the clock
        start = time.perf_counter()
        pool.map(_spin, [0, 1], chunksize=1)
        together = time.perf_counter() - start
    return alone / together


# ---------------------------------------------------------------- bots
GREEDY_WARM_UP = 1_000  # the seed of the game a warm run plays first, untimed


def greedy_games_per_second(game, games, cold=False):
    """2-player games of greedy against greedy, of seeds 0..games-1: the same
    games in every run, so that runs differ by the machine alone, not by
    how long their games happen to be. The evaluators the bots share are
    made anew first (they remember the values of positions they met: the
    same games again would find them all); a warm run first plays one
    untimed game of another seed, as a process that has played before
    (its evaluators made and their sample games played, values of that
    game's positions remembered), and `cold` times the first games of a
    process."""
    game.program.evaluators.clear()
    if not cold:
        play_game(game, 2, GREEDY_WARM_UP, make_agents("greedy", 2, GREEDY_WARM_UP))
    start = time.perf_counter()
    for seed in range(games):
        play_game(game, 2, seed, make_agents("greedy", 2, seed))
    return games / (time.perf_counter() - start)


def ismcts_simulations_per_second(game, iterations=200):
    """One search of the `mcts` bot at the opening of a 2-player game, each
    simulation a random rollout to the end of the game (horizon 0)."""
    st = game.new_initial_state(2, 11)
    player = st.current_player()
    bot = make_agent(f"mcts:{iterations}:horizon=0:reuse=0", 11, player)
    start = time.perf_counter()
    bot.choose(st.decision(), st.observation(player), world_sampler(st, player, 11))
    return bot.last_iterations / (time.perf_counter() - start)


def openspiel_available() -> bool:
    try:
        import open_spiel  # noqa: F401
    except ImportError:
        return False
    return True


def openspiel_simulations_per_second(simulations=100):
    """OpenSpiel's ISMCTS (its Python ISMCTSBot with one random rollout to the
    end per simulation) through the adapter, at the same 2-player opening."""
    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts

    from interpreter.adapters import openspiel_game as osg

    game = osg.load(str(RULES), players=2)
    state = game.new_initial_state()
    state.apply_action(11)  # the chance node: the game of seed 11
    rs = np.random.RandomState(3)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), 2.0, simulations, random_state=rs)
    bot.set_resampler(osg.resampler(seed=1))
    start = time.perf_counter()
    bot.step(state)
    return simulations / (time.perf_counter() - start)


def simulate_seconds(games, jobs):
    start = time.perf_counter()
    simulate(str(RULES), games, players=2, bots="random", seed=5, jobs=jobs)
    return time.perf_counter() - start


def bot_speed(game, spec, games):
    """The bot in both seats of `games` 2-player games: decisions/s over the
    whole game (engine included) and milliseconds per choice among several options."""
    decisions, wall, choices, thinking = 0, 0.0, 0, 0.0
    for seed in range(games):
        agents = make_agents(spec, 2, seed)
        timed = [0, 0.0]
        st = game.new_initial_state(2, seed)
        start = time.perf_counter()
        while not st.is_terminal():
            player = st.current_player()
            decision = st.decision()
            t = time.perf_counter()
            choice = agents[player].choose(decision, st.observation(player), world_sampler(st, player, seed))
            if len(decision.options) > 1:
                timed[0] += 1
                timed[1] += time.perf_counter() - t
            st.apply_action(choice)
        wall += time.perf_counter() - start
        decisions += st.decisions
        choices += timed[0]
        thinking += timed[1]
    return {"decisions_per_s": decisions / wall, "ms_per_choice": 1000 * thinking / max(1, choices)}


# ---------------------------------------------------------------- report
def reference_note() -> str:
    if REFERENCE.exists():
        return f"shared reference: {REFERENCE} (run in the same benchmark)"
    return (f"shared reference: NOT PRESENT at {REFERENCE}; no ratio to it was measured "
            "(the ratio to benchmarks/baseline_catalyst.py is)")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs per figure (the median is reported) [5]")
    parser.add_argument("--games", type=int, default=300, help="random games per run [300]")
    parser.add_argument("--greedy-games", type=int, default=10, help="greedy games per run, seeds 0 to N-1 [10]")
    parser.add_argument("--bot-games", type=int, default=2, help="games per bot for the per-bot figures [2]")
    parser.add_argument("--no-bots", action="store_true", help="skip the per-bot figures")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    game = load_game(RULES)
    load_before = os.getloadavg()[0]
    figures = {}
    for players in (2, 4):
        engine_figures(game, players, args, figures)
    figures["greedy_games_per_s_2p"] = median_of(lambda: greedy_games_per_second(game, args.greedy_games),
                                                 args.repeat)
    figures["greedy_games_per_s_2p_cold"] = median_of(
        lambda: greedy_games_per_second(game, args.greedy_games, cold=True), args.repeat)
    figures["observation_us"] = median_of(lambda: observation_microseconds(game), args.repeat)
    figures["observation_again_us"] = median_of(lambda: observation_again_microseconds(game), args.repeat)
    figures["clone_us"] = median_of(lambda: clone_microseconds(game), args.repeat)
    with tempfile.TemporaryDirectory() as pycache:
        env = _check_env(pycache)
        check_wall_seconds(env)  # the first run writes the bytecode
        figures["check_wall_s"] = median_of(lambda: check_wall_seconds(env), args.repeat)
    figures["check_wall_s_no_bytecode_kept"] = median_of(
        lambda: check_wall_seconds(dict(os.environ, PYTHONDONTWRITEBYTECODE="1")), args.repeat)
    figures["python_start_s"] = median_of(python_start_seconds, args.repeat)
    figures["ismcts_simulations_per_s"] = median_of(lambda: ismcts_simulations_per_second(game), args.repeat)
    if openspiel_available():
        figures["openspiel_ismcts_simulations_per_s"] = median_of(openspiel_simulations_per_second, args.repeat)
    sweep = args.games * 4
    # the two timed in turn, so a slower spell of a shared machine falls on both
    runs = [(simulate_seconds(sweep, 1), simulate_seconds(sweep, 2)) for _ in range(args.repeat)]
    one = statistics.median(r[0] for r in runs)
    two = statistics.median(r[1] for r in runs)
    figures["simulate_games_per_s_jobs1"] = sweep / one
    figures["simulate_games_per_s_jobs2"] = sweep / two
    figures["simulate_speedup_jobs2"] = statistics.median(r[0] / r[1] for r in runs)
    figures["machine_speedup_2_processes"] = median_of(machine_speedup_two_processes, args.repeat)
    if not args.no_bots:
        for spec in BOTS:
            speed = bot_speed(game, spec, args.bot_games)
            figures[f"bot_{spec}_decisions_per_s"] = speed["decisions_per_s"]
            figures[f"bot_{spec}_ms_per_choice"] = speed["ms_per_choice"]
    notes = {
        "repeat": args.repeat,
        "load_average": [round(load_before, 2), round(os.getloadavg()[0], 2)],
        "baseline": "benchmarks/baseline_catalyst.py (the same games, hand-written)",
        "reference_present": REFERENCE.exists(),
        "reference": reference_note(),
        "openspiel": "measured" if openspiel_available() else "NOT INSTALLED: OpenSpiel's ISMCTS was not measured",
    }
    if args.json:
        print(json.dumps({"figures": {k: round(v, 3) for k, v in figures.items()}, "notes": notes}, indent=2))
    else:
        for key, value in figures.items():
            print(f"{key:40} {value:12.3f}")
        for key, value in notes.items():
            print(f"{key}: {value}")


if __name__ == "__main__":
    main()
