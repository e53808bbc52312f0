"""Thin command-line shell: parse arguments, call one function per command, print, set the exit code."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .errors import CatalogDocsError, CatalogInvalid


def _cmd_check(args: argparse.Namespace) -> int:
    from .validate import load_catalog

    catalog = load_catalog(args.catalog)
    print(catalog.summary())
    return 0


def _cmd_render(args: argparse.Namespace) -> int:
    from .incremental import render_if_changed

    result = render_if_changed(args.catalog, args.out, force=args.force)
    if result is None:
        print(f"rendered into {args.out}: nothing changed since the last render (use --force to render anyway)")
        return 0
    print(f"rendered into {args.out}: {len(result.written)} files written, {result.unchanged} unchanged, "
          f"{len(result.removed)} stale files removed")
    return 0


def _cmd_clean(args: argparse.Namespace) -> int:
    from .render import write_output

    result = write_output({}, args.out)
    print(f"removed {len(result.removed)} generated files from {args.out}; hand-written files were kept")
    return 0


def _cmd_synth(args: argparse.Namespace) -> int:
    from .synth import SynthSpec, write_synth

    spec = SynthSpec(operations=args.operations, versions=args.versions, plans=args.plans, seed=args.seed)
    count = write_synth(spec, args.out)
    print(f"wrote a synthetic catalogue into {args.out}: {count} files, {spec.operations} operations, "
          f"{spec.versions} version labels, {spec.plans} plan entries (seed {spec.seed})")
    return 0


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def build_parser() -> argparse.ArgumentParser:
    """The argument parser for every sub-command."""
    parser = argparse.ArgumentParser(prog="catalog-docs", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    check = sub.add_parser("check", help="validate the catalogue and print its counts")
    check.add_argument("--catalog", type=Path, default=Path("catalog"), help="catalogue folder (default ./catalog)")
    check.set_defaults(func=_cmd_check)
    render = sub.add_parser("render", help="render the Markdown pages and downloads into the docs folder")
    render.add_argument("--catalog", type=Path, default=Path("catalog"), help="catalogue folder (default ./catalog)")
    render.add_argument("--out", type=Path, default=Path("docs"), help="output folder (default ./docs)")
    render.add_argument("--force", action="store_true",
                        help="render even when the catalogue, schemas and templates are unchanged since the last render")
    render.set_defaults(func=_cmd_render)
    clean = sub.add_parser("clean", help="remove the generated pages (only files catalog-docs wrote)")
    clean.add_argument("--out", type=Path, default=Path("docs"), help="output folder (default ./docs)")
    clean.set_defaults(func=_cmd_clean)
    synth = sub.add_parser("synth", help="write a synthetic (fake) catalogue of any size, for benchmarks")
    synth.add_argument("--operations", type=_positive, required=True, help="listing entries")
    synth.add_argument("--versions", type=_positive, required=True, help="version labels")
    synth.add_argument("--plans", type=_positive, required=True, help="plan entry names")
    synth.add_argument("--out", type=Path, required=True, help="catalogue folder to write")
    synth.add_argument("--seed", type=int, default=1, help="random seed (same seed, same files; default 1)")
    synth.set_defaults(func=_cmd_synth)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the `catalog-docs` console script."""
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except CatalogInvalid as exc:
        print(exc.report(), file=sys.stderr)
        return 1
    except CatalogDocsError as exc:
        print(f"catalog-docs: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
