"""A solver's own parameters, passed through as the solver names them (the Python API's
`solver_params`): each is checked against what the solver declares, so a misspelt name is
refused in one line naming it instead of being dropped (HiGHS prints an error and runs on;
CP-SAT's parameters object raises a bare AttributeError)."""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from typing import Any

from ..core.errors import InputError

# python-sat's Solver.configure() sets options of these solvers only (its documentation)
CONFIGURABLE_SAT = ("cadical153", "cadical195", "glucose42")
GLUCOSE42_OPTIONS = ("rnd-seed", "rnd-freq", "rnd-init-act", "rnd-pol", "rnd-first-descent")


def unknown(what: str, name: str, known: Iterable[str]) -> InputError:
    """`what has no parameter 'name'`, with the closest known name when one is close."""
    close = difflib.get_close_matches(name, list(known), n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    return InputError(f"solver_params: {what} has no parameter {name!r}{hint}")


def cpsat(params: Mapping[str, Any]) -> dict[str, Any]:
    """CP-SAT's parameters (any `SatParameters` field; `text_format` for nested messages in
    protobuf text), each tried on a scratch parameters object."""
    from google.protobuf import text_format
    from ortools.sat import sat_parameters_pb2

    probe = sat_parameters_pb2.SatParameters()
    fields = probe.DESCRIPTOR.fields_by_name
    for key, value in params.items():
        try:
            if key == "text_format":
                text_format.Merge(value, probe)
            elif key not in fields:
                raise unknown("CP-SAT", key, fields)
            elif isinstance(value, list | tuple):
                getattr(probe, key).extend(value)
            else:
                setattr(probe, key, value)
        except (TypeError, ValueError, text_format.ParseError) as exc:
            raise InputError(f"solver_params: CP-SAT's {key} cannot take {value!r}: {exc}") \
                from None
    return dict(params)


def highs(params: Mapping[str, Any]) -> dict[str, Any]:
    """HiGHS's options (`mip_rel_gap`, `presolve`...), each set on a scratch HiGHS first: PuLP
    hands them to HiGHS, which prints an error for a bad one and runs on without it."""
    import highspy

    probe = highspy.Highs()
    probe.setOptionValue("output_flag", False)
    for key, value in params.items():
        status, _kind = probe.getOptionType(key)
        if status != highspy.HighsStatus.kOk:
            raise unknown("HiGHS", key, _highs_names(probe))
        if probe.setOptionValue(key, value) != highspy.HighsStatus.kOk:
            raise InputError(f"solver_params: HiGHS's {key} cannot take {value!r}")
    return dict(params)


def _highs_names(probe) -> list[str]:
    """Every option name HiGHS declares (for the closest-name hint)."""
    options = probe.getOptions()
    return [n for n in dir(options) if not n.startswith("_")]


def cbc(params: Mapping[str, Any]) -> list[str]:
    """CBC's command-line options as `name value` words (CBC itself reports a name it does
    not know, on its log)."""
    for key, value in params.items():
        if not isinstance(key, str) or not key.strip() or " " in key:
            raise InputError(f"solver_params: {key!r} is not a CBC option name")
        if not isinstance(value, str | int | float):
            raise InputError(f"solver_params: CBC's {key} takes a number or a word, "
                             f"got {value!r}")
    return [f"{key} {value}" for key, value in params.items()]


def sat(solver: str, params: Mapping[str, Any]) -> dict[str, Any]:
    """python-sat's `configure()` parameters: CaDiCaL's options, or Glucose 4.2's random
    ones; other solvers take none (python-sat offers no way to set them)."""
    if solver not in CONFIGURABLE_SAT:
        raise InputError(f"solver_params: python-sat sets parameters of "
                         f"{', '.join(CONFIGURABLE_SAT)} only, not of {solver}; pass "
                         "solver='cadical195' (the default) or drop solver_params")
    for key, value in params.items():
        if solver == "glucose42" and key not in GLUCOSE42_OPTIONS:
            raise unknown("glucose42", key, GLUCOSE42_OPTIONS)
        if not isinstance(value, bool | int | float):
            raise InputError(f"solver_params: {solver}'s {key} takes a number or a "
                             f"bool, got {value!r}")
    return dict(params)
