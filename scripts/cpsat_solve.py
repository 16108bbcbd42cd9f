#!/usr/bin/env python3
"""Solve an exported CP-SAT model (a CpModelProto, text or binary) in its own process and
write the CpSolverResponse as text, which `tilesolve verify --map` reads back:

    tilesolve export instances/hidato_19_01.txt --to cpsat -o m.pb
    python scripts/cpsat_solve.py m.pb -o m.response.txt --time-limit 60
    tilesolve verify instances/hidato_19_01.txt m.response.txt --map m.pb.map.json

Exit code 0 when the response holds a solution, 3 infeasible, 4 no answer within the time
limit, 2 bad input (tilesolve's own codes).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

TEXT = (".txt", ".pbtxt", ".textproto")


def load(path: Path):
    """The model, from protobuf text (by extension) or binary."""
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    raw = path.read_bytes()
    if path.suffix.lower() in TEXT:
        ok = model.proto.parse_text_format(raw.decode("utf-8"))
    else:
        from google.protobuf import text_format
        from google.protobuf.message import DecodeError
        from ortools.sat import cp_model_pb2

        try:
            binary = cp_model_pb2.CpModelProto.FromString(raw)
        except DecodeError:
            ok = False
        else:
            ok = model.proto.parse_text_format(text_format.MessageToString(binary))
    if not ok:
        raise ValueError("not a CpModelProto (text for .txt/.pbtxt/.textproto, else binary)")
    return model


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("model", type=Path, help="CpModelProto file")
    ap.add_argument("-o", "--output", type=Path, help="response file (default: stdout)")
    ap.add_argument("--time-limit", type=float, default=None, help="seconds")
    ap.add_argument("--threads", type=int, default=1, help="CP-SAT workers")
    args = ap.parse_args(argv)
    if not args.model.is_file():
        print(f"error: {args.model}: no such file", file=sys.stderr)
        return 2
    from ortools.sat.python import cp_model

    try:
        model = load(args.model)
    except (ValueError, UnicodeDecodeError) as exc:
        print(f"error: {args.model}: {exc}", file=sys.stderr)
        return 2
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = args.threads
    if args.time_limit is not None:
        solver.parameters.max_time_in_seconds = args.time_limit
    status = solver.solve(model)
    text = str(solver.response_proto)
    if args.output:
        args.output.write_text(text)
    else:
        sys.stdout.write(text)
    print(f"{solver.status_name(status)} in {solver.wall_time:.2f} s", file=sys.stderr)
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return 0
    if status == cp_model.INFEASIBLE:
        return 3
    return 2 if status == cp_model.MODEL_INVALID else 4


if __name__ == "__main__":
    sys.exit(main())
