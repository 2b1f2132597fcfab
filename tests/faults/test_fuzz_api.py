"""Every callable of `beggarstats.__all__`, and the atlas runner's `build_atlas` (issue #51), fuzzed
(issue #40, item 8): a call that works, with one or two of its arguments replaced by a wrong type,
NaN, an infinity, a negative or huge integer, text or an empty container. Each call must return or
raise TypeError / ValueError (the package's DealError and StoreError are ValueErrors) with a message;
never another exception, never a hang (each call runs in a thread with a timeout), and a value no
parameter can mean (NaN, an infinity, 10**30, 2**64, an object) is never accepted. Seeded, so a
failure repeats; the counts are printed."""

from __future__ import annotations

import inspect
import random
import threading

import numpy as np
import pytest

import beggarstats as bs

QUICK_CASES = 400
SLOW_CASES = 2500
TINY = bs.Rules(deck=bs.Deck(2, 1, 1, 0, 0))
R = bs.Rules()
DEAL = bs.deal_at(5, R)


class Opaque:
    """An object no parameter takes."""


NONSENSE = [float("nan"), float("inf"), -float("inf"), 10**30, -10**30, Opaque(), np.float64("nan")]
WEIRD = NONSENSE + [None, True, False, -1, 0, 1, 1.5, "", "x", "5", (), [], {}, np.int8(5), np.array([1, 2]),
                    b"x", R, bs.Deck(), 2**63, 2**64, -(2**63)]
# records whose fields are plain data with no check of their own (what a game returns)
LENIENT = {"GameResult", "Trick", "DealError"}
# parameters for which an infinity or a huge number means something: seconds between saves
# (save only when the run stops)
UNBOUNDED = {"checkpoint"}


def _calls(tmp):
    store = tmp / "store"
    bs.simulate_to_store(20, seed=1, store=store, n_jobs=1)
    frame = bs.simulate(20, seed=1, n_jobs=1)
    text = bs.format_deal(DEAL)
    return {
        "DealError": (("bad",), {}),
        "parse_deal": (("K-/-Q",), {}),
        "format_deal": ((((0, 3), (2, 0)),), {}),
        "random_deal": ((1, 0, R), {}),
        "deal_rank": ((DEAL, R), {}),
        "deal_at": ((5, R), {}),
        "n_deals": ((R,), {}),
        "census": ((TINY,), {"n_jobs": 1}),
        "Deck": ((2, 1, 1, 0, 0), {}),
        "GameResult": (("x", "win", 0, 1, 1, None, None, None, None, (), (), (), (), ()), {}),
        "Trick": ((0, (), None, ()), {}),
        "simulate_matches": ((3,), {"seed": 1, "n_jobs": 1}),
        "play": ((text,), {}),
        "load_records": ((), {}),
        "replay_records": ((), {}),
        "Rules": ((), {"players": 3}),
        "replay": ((1, 0), {}),
        "simulate": ((20,), {"seed": 1, "n_jobs": 1}),
        "simulate_to_store": ((20,), {"seed": 1, "store": tmp / "other", "n_jobs": 1}),
        "load": ((store,), {}),
        "save": ((frame, tmp / "f.parquet"), {}),
        "verify": ((store,), {}),
        "Summary": ((R, 1), {}),
        "summarize": ((20,), {"seed": 1, "n_jobs": 1}),
        "compare": ((R, R.replace(end="empty"), 20), {"seed": 1, "n_jobs": 1}),
        "search_long": ((TINY,), {"seed": 1, "deals": 5, "strategy": "random", "min_cards": 1, "n_jobs": 1}),
        "run_back": ((text,), {"nodes": 50}),
        "tail_chain": ((TINY,), {"seed": 1, "n_deals": 5, "horizon": 5, "n_jobs": 1}),
        "tail_chain_cards": ((TINY,), {"seed": 1, "n_deals": 5, "horizon": 5, "n_jobs": 1}),
    }


ATLAS_TINY = ((2, (1, 1, 1, 1, 1), "trick"), (2, (3, 1, 1, 0, 0), "trick"))  # 120 and 20 deals


def _beyond_the_api(tmp, monkeypatch):
    """Callables the fuzz draws beside `bs.__all__`: the atlas runner's `build_atlas` (issue #51), on two
    tiny decks and with its default folder in ``tmp`` (never the repository's data/census)."""
    import beggarstats.report.atlas as atlas

    monkeypatch.setattr(atlas, "ATLAS_DECKS", ATLAS_TINY)
    monkeypatch.setattr(atlas, "source_data_folder", lambda writer: tmp / "atlas-default")
    return {"report.atlas.build_atlas": (atlas.build_atlas, (tmp / "atlas",), {"n_jobs": 1})}


def _finish(fn, timeout=60):
    box = {}

    def target():
        try:
            box["value"] = fn()
        except BaseException as exc:  # noqa: BLE001 - judged by the test
            box["error"] = exc

    t = threading.Thread(target=target, daemon=True)
    t.start()
    t.join(timeout)
    return box, t.is_alive()


def _parameters(fn, args, kwargs):
    """The slots that can be mutated: positional indices of ``args``, then every keyword parameter."""
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return [("arg", i) for i in range(len(args))]
    slots = [("arg", i) for i in range(len(args))]
    for p in list(sig.parameters.values())[len(args):]:
        if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD) and p.name not in ("reduce", "collect", "rng"):
            slots.append(("kw", p.name))
    return slots


def _fuzz(tmp_path, monkeypatch, n, seed):
    monkeypatch.chdir(tmp_path)  # a path argument of "x" or "" lands here, never in the repository
    calls = _calls(tmp_path)
    assert set(calls) == {n for n in bs.__all__ if callable(getattr(bs, n)) and not isinstance(getattr(bs, n), int)}
    functions = {name: getattr(bs, name) for name in calls}
    for name, (fn, args, kwargs) in _beyond_the_api(tmp_path, monkeypatch).items():
        functions[name], calls[name] = fn, (args, kwargs)
    rng = random.Random(seed)
    names = sorted(calls)
    counts = {"cases": 0, "returned": 0, "refused": 0}
    problems = []
    for i in range(n):
        name = names[i % len(names)]
        fn = functions[name]
        args, kwargs = calls[name]
        args, kwargs = list(args), dict(kwargs)
        slots = _parameters(fn, args, kwargs)
        if not slots:
            box, hung = _finish(lambda: fn(*args, **kwargs))
            counts["cases"] += 1
            counts["returned" if "value" in box else "refused"] += 1
            continue
        nonsense = False
        for kind, key in rng.sample(slots, k=min(len(slots), rng.choice([1, 1, 2]))):
            value = rng.choice(WEIRD)
            nonsense |= any(value is v for v in NONSENSE) and key not in UNBOUNDED
            if kind == "arg":
                args[key] = value
            else:
                kwargs[key] = value
        box, hung = _finish(lambda: fn(*args, **kwargs))
        counts["cases"] += 1
        shown = f"bs.{name}(*{args!r:.120}, **{kwargs!r:.160})"
        if hung:
            problems.append(f"hung: {shown}")
            continue
        err = box.get("error")
        if err is None:
            counts["returned"] += 1
            if nonsense and name not in LENIENT:
                problems.append(f"accepted nonsense: {shown}")
        elif isinstance(err, (TypeError, ValueError)) and str(err).strip():
            counts["refused"] += 1
        else:
            problems.append(f"{type(err).__name__}: {str(err)[:200]!r} from {shown}")
    print(f"\nAPI fuzz (seed {seed}): {counts}, problems {len(problems)}")
    assert not problems, "\n".join(problems[:20])
    return counts


def test_fuzz_the_public_api_quick(tmp_path, monkeypatch):
    counts = _fuzz(tmp_path, monkeypatch, QUICK_CASES, seed=40)
    assert counts["refused"] > QUICK_CASES // 3 and counts["returned"] > 0


@pytest.mark.slow
def test_fuzz_the_public_api_slow(tmp_path, monkeypatch):
    counts = _fuzz(tmp_path, monkeypatch, SLOW_CASES, seed=4040)
    assert counts["cases"] == SLOW_CASES
