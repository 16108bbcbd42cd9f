"""`tilesolve options NAME`: the declared options of a backend, the portfolio, the islands or a
generator, each with its type, default and meaning (read from the `OPTIONS` tables)."""

from __future__ import annotations

from .core.errors import InputError
from .core.family import EXACT_BACKENDS, Family, families, get_family
from .core.options import Options
from .core.registry import BACKENDS, FAMILIES, families_with

RACES = ("portfolio", "islands")
LANES_NOTE = "any other option goes to the racing backends that take it (tilesolve options " \
    "BACKEND)"


def backends_by_family() -> dict[str, list[str]]:
    """Each backend name with the installed families that declare it (core.registry)."""
    fams = families()
    return {b: [f for f in families_with(b) if f in fams] for b in BACKENDS}


def generators() -> list[str]:
    """The installed families that declare a `generate` module (core.registry)."""
    fams = families()
    return [f.name for f in FAMILIES.values() if f.generates and f.name in fams]


def command_options(command: str, backend: str | None = None) -> Options:
    """Every declared option a command's line may carry: `generate` the generators', `verify`
    the families' own, `export` the exact backends' (the models it writes), `solve` and
    `bench` the backends' (the one named by --backend, else all, with the races'). Read only
    when a line has such an option: the tables import the solver libraries (0.9 s for all)."""
    fams = families()
    if command == "generate":
        return Options(*(fams[f].module("generate").OPTIONS for f in generators()))
    if command == "verify":
        return Options(*(fam.options for fam in fams.values()))
    names = EXACT_BACKENDS if command == "export" else \
        [backend] if backend in BACKENDS else list(BACKENDS)
    by_family = backends_by_family()
    tables = [fams[f].backend_options(b) for b in names for f in by_family[b]]
    if command in ("solve", "bench") and backend not in BACKENDS:
        tables += [_race_table(race) for race in RACES]
    if command == "bench":
        from .bench import BENCH_OPTIONS

        tables.append(BENCH_OPTIONS)
    return Options(*tables)


def note(name: str) -> str | None:
    """What a page adds below its table."""
    return LANES_NOTE if name in RACES else None


def pages(name: str, family: str | None = None) -> list[tuple[str, Options]]:
    """(title, table) for NAME: a backend (of one family, or of each that has it), `portfolio`,
    `islands`, or `generate` (with a family)."""
    if name == "generate":
        if family is None:
            raise InputError("options generate needs a family, e.g. `tilesolve options generate "
                             "edgematch`")
        return [(f"generate {family}", get_family(family).module("generate").OPTIONS)]
    if name in RACES:
        return [(name, _race_table(name))]
    if name not in BACKENDS:
        raise InputError(f"unknown name {name!r}; expected a backend ("
                         f"{', '.join(BACKENDS)}), {', '.join(RACES)} or generate FAMILY")
    fams = [get_family(family)] if family else \
        [families()[f] for f in backends_by_family()[name]]
    return [(f"{fam.name} --backend {name}", _backend_table(fam, name)) for fam in fams]


def _backend_table(fam: Family, backend: str) -> Options:
    return fam.backend_options(backend)  # one line when the family has no such backend


def _race_table(name: str) -> Options:
    if name == "portfolio":
        from .hybrid.portfolio import OPTIONS
    else:
        from .hybrid.islands import OPTIONS
    return OPTIONS


def solve_help() -> str:
    """The lines `solve --help` ends with: where the options are listed, and the backends."""
    lines = ["Backend options (--name value): `tilesolve options BACKEND [--family F]` lists "
             "each one's type, default and meaning; also `tilesolve options portfolio`, "
             "`tilesolve options islands`, `tilesolve options generate FAMILY`.", "Backends:"]
    lines += [f"  {b}: {', '.join(fams)} ({BACKENDS[b].summary})"
              for b, fams in backends_by_family().items()]
    lines.append("  portfolio: races the family's backends in parallel")
    return "\n".join(lines)
