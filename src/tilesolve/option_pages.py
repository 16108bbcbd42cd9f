"""`tilesolve options NAME`: the declared options of a backend, the portfolio, the islands or a
generator, each with its type, default and meaning (read from the `OPTIONS` tables)."""

from __future__ import annotations

from .core.errors import InputError
from .core.family import BACKEND_MODULES, EXACT_BACKENDS, FAMILY_NAMES, Family, families, get_family
from .core.options import Options

RACES = ("portfolio", "islands")
LANES_NOTE = "any other option goes to the racing backends that take it (tilesolve options " \
    "BACKEND)"


def backends_by_family() -> dict[str, list[str]]:
    """Each backend name with the families that have it (found without importing solvers)."""
    from .hybrid.budget import has_backend

    fams = families()
    return {b: [f for f in FAMILY_NAMES if f in fams and has_backend(fams[f], b)]
            for b in BACKEND_MODULES}


def generators() -> list[str]:
    """The families that generate instances: those with a `generate` module (not imported)."""
    import importlib.util

    return [f for f in FAMILY_NAMES if f in families()
            and importlib.util.find_spec(f"tilesolve.families.{f}.generate") is not None]


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
        [backend] if backend in BACKEND_MODULES else list(BACKEND_MODULES)
    by_family = backends_by_family()
    tables = [fams[f].backend_options(b) for b in names for f in by_family[b]]
    if command in ("solve", "bench") and backend not in BACKEND_MODULES:
        tables += [_race_table(race) for race in RACES]
    if command == "bench":
        from .hybrid.bench import BENCH_OPTIONS

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
    if name not in BACKEND_MODULES:
        raise InputError(f"unknown name {name!r}; expected a backend ("
                         f"{', '.join(BACKEND_MODULES)}), {', '.join(RACES)} or generate FAMILY")
    fams = [get_family(family)] if family else \
        [families()[f] for f in backends_by_family()[name]]
    return [(f"{fam.name} --backend {name}", _backend_table(fam, name)) for fam in fams]


def _backend_table(fam: Family, backend: str) -> Options:
    fam.backend_module(backend)  # one line when the family has no such backend
    return fam.backend_options(backend)


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
    lines += [f"  {b}: {', '.join(fams)}" for b, fams in backends_by_family().items()]
    lines.append("  portfolio: races the family's backends in parallel")
    return "\n".join(lines)
