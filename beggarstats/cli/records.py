"""`beggarstats records`: replay the known record deals, published figures beside ours."""

from __future__ import annotations

__all__ = ["HELP", "add_parser", "run"]

HELP = "replay the known record deals and compare with the published figures"


def add_parser(sub):
    p = sub.add_parser("records", help=HELP,
                       description="Replay data/records.csv: published figures against computed ones.")
    return p


def _fmt(value) -> str:
    return "-" if value is None else str(value)


def run(args) -> int:
    from ..run.records import replay_records

    rows = replay_records()
    head = f"{'record':<16} {'outcome':<8} {'winner':>6} {'cards':>11} {'tricks':>11} {'loop start':>11} {'cycle':>11}  check"
    print(head)
    print("-" * len(head))
    for row in rows:
        pub, com = row["published"], row["computed"]

        def both(key):
            return f"{_fmt(pub.get(key))}/{_fmt(com[key])}" if key in pub else f"?/{_fmt(com[key])}"

        loop_start = f"{_fmt(com['loop_start_tricks'])}t {_fmt(com['loop_start_cards'])}c" if com["loop_tricks"] is not None else "-"
        cycle = f"{_fmt(com['loop_tricks'])}t {_fmt(com['loop_cards'])}c" if com["loop_tricks"] is not None else "-"
        print(f"{row['name']:<16} {com['outcome']:<8} {_fmt(com['winner']):>6} {both('cards'):>11} {both('tricks'):>11} "
              f"{loop_start:>11} {cycle:>11}  {'ok' if row['match'] else 'MISMATCH'}")
    bad = [r["name"] for r in rows if not r["match"]]
    print(f"\ncards and tricks are published/computed ('?' = not published); "
          f"{len(rows) - len(bad)} of {len(rows)} records match their published figures")
    return 1 if bad else 0
