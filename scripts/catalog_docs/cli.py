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
    from .write import write_output

    result = write_output({}, args.out)
    print(f"removed {len(result.removed)} generated files from {args.out}; hand-written files were kept")
    return 0


def _cmd_diff(args: argparse.Namespace) -> int:
    from .compare import compare_catalogs, compare_sides, parse_side
    from .formats import format_comparison
    from .gitrev import catalog_at_revision, find_catalog_dir
    from .validate import load_catalog

    catalog_dir = find_catalog_dir(args.catalog)
    if args.against is not None:
        if args.sides:
            raise CatalogDocsError("give either FROM TO or --against REV, not both")
        old = catalog_at_revision(catalog_dir, args.against)
        cmp = compare_catalogs(old, load_catalog(catalog_dir), args.against, "working tree")
    else:
        if len(args.sides) != 2:
            raise CatalogDocsError("expected FROM TO (each LABEL or LABEL:PLAN), or --against REV")
        catalog = load_catalog(catalog_dir)
        cmp = compare_sides(catalog, parse_side(args.sides[0], catalog), parse_side(args.sides[1], catalog))
    sys.stdout.write(format_comparison(cmp, args.format))
    return 1 if args.exit_code and cmp.has_differences else 0


def _cmd_export(args: argparse.Namespace) -> int:
    from .export import export_text
    from .gitrev import find_catalog_dir
    from .validate import load_catalog

    text = export_text(load_catalog(find_catalog_dir(args.catalog)), args.format)
    if args.out is None:
        sys.stdout.write(text)
    else:
        try:
            args.out.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise CatalogDocsError(f"cannot write {args.out}: {exc.strerror}") from None
        print(f"wrote {args.out}", file=sys.stderr)
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
    diff = sub.add_parser(
        "diff", help="compare two version labels or plan entries, or the catalogue at a git revision",
        usage="catalog-docs diff FROM TO [options]\n       catalog-docs diff --against REV [options]",
        description="Compare FROM with TO (each a version label 'UPI_N 1.0.1' or a label and plan entry "
                    "'UPI_N 1.0.1:UPI_N 1.0.0'), or with --against REV the catalogue at a git revision with the "
                    "working tree.")
    diff.add_argument("sides", nargs="*", metavar="FROM TO", help="two labels, or two LABEL:PLAN pairs")
    diff.add_argument("--against", metavar="REV", help="compare the catalogue at git revision REV with the working tree")
    diff.add_argument("--format", choices=("text", "markdown", "json"), default="text",
                      help="text for a terminal (default), markdown for a pull-request comment, json for tools")
    diff.add_argument("--exit-code", action="store_true",
                      help="exit 1 when there is any difference, 0 when there is none (errors exit 2)")
    diff.add_argument("--catalog", type=Path, default=None,
                      help="catalogue folder (default ./catalog, else catalog/ at the top of the git checkout)")
    diff.set_defaults(func=_cmd_diff)
    export = sub.add_parser("export", help="write the catalogue as JSON, the lock matrix as CSV, or OpenAPI 3.1")
    export.add_argument("--format", choices=("json", "csv", "openapi"), required=True,
                        help="json: the model; csv: the lock matrix; openapi: an OpenAPI 3.1 YAML document")
    export.add_argument("--out", type=Path, default=None, help="write to FILE instead of standard output")
    export.add_argument("--catalog", type=Path, default=None,
                        help="catalogue folder (default ./catalog, else catalog/ at the top of the git checkout)")
    export.set_defaults(func=_cmd_export)
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
        return 2 if args.command == "diff" else 1  # diff keeps 1 for "differences found"
    except CatalogDocsError as exc:
        print(f"catalog-docs: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
