"""Thin command-line shell: parse arguments, call one function per command, print, set the exit code."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path

from catalog_docs.catalog.locate import find_catalog_dir, out_dir_beside, shown_path
from catalog_docs.errors import EXIT_INVALID, EXIT_OK, EXIT_USAGE, CatalogDocsError

EXIT_INTERRUPTED = 130  # Ctrl-C (128 + SIGINT, as a shell reports it)
EXIT_BROKEN_PIPE = 141  # the reader closed the pipe early (128 + SIGPIPE, as a shell reports it)

DESCRIPTION = """\
Work with the Payment Interface Service catalogue, the YAML files in catalog/: check them, render the
site's pages from them, compare version labels, add a version label, and export the data."""

EPILOG = """\
The catalogue is the catalog/ folder of the nearest folder, from the current one upwards, that has one
(so every command works from any folder of the checkout); --catalog DIR names another.

exit codes (the same for every command):
  0  done (diff --exit-code: no differences)
  1  the catalogue is invalid (each error printed as file:line:column: key: expected, found), here or
     at the revision compared against; render --publish found a draft; diff --exit-code found differences
  2  usage or environment error: bad arguments, an unknown label or revision, a refused revision,
     no catalog/ folder, a file or folder that cannot be read or written
  130  interrupted (Ctrl-C)
  141  the reader of the output closed it early (catalog-docs diff ... | head); nothing else is printed
watch and build exit with their engine's exit code (0 without one); while the catalogue is invalid, watch
keeps watching and every page shows the errors. clean and synth do not read the catalogue. Errors go to stderr, one per
line."""


DIFF_EXITS = """

diff exit codes (the review gate is --fail-on with --acknowledged):
  0  compared; no difference (with --exit-code); no change held (with --fail-on)
  1  the catalogue here or at REV is invalid; a difference (with --exit-code); a change the gate holds:
     selected by --fail-on and acknowledged neither itself nor by its plan entry's or label's removal or
     addition
  2  an unknown label, plan entry, kind or revision; a refused revision; --max-chars out of range; an
     acknowledgements file that does not check (each problem at file:line:column; a reason over 500 characters
     is one) or cannot be read (missing, not a regular file, over 1 MB). A reason left empty is not such a
     problem: that acknowledgement acknowledges nothing (its change stays held) and is named as a warning and in
     the verdict"""


def _cmd_check(args: argparse.Namespace) -> int:
    from catalog_docs.catalog.validate import load_catalog

    catalog = load_catalog(args.catalog)
    print(catalog.summary())
    for v in catalog.versions:
        if v.draft:
            where = shown_path(args.catalog / "versions" / f"{v.slug}.yaml")  # from the current folder
            print(f"draft: version label {v.label!r} ({where}) is a copy not yet checked against the "
                  f"source; make serve marks it, make site refuses it until `draft: true` is deleted")
    return EXIT_OK


def _cmd_render(args: argparse.Namespace) -> int:
    from catalog_docs.site.folders import render_out
    from catalog_docs.site.pages import site_files
    from catalog_docs.site.twins import split_twins

    if args.publish:
        from catalog_docs.catalog.drafts import refuse_drafts

        refuse_drafts(args.catalog)
    from catalog_docs.catalog.locate import find_project

    files, _twins = split_twins(site_files(args.catalog))  # twins are files of a built site (site/twins.py)
    projects = [args.catalog.resolve().parent, *filter(None, [find_project()])]
    render_out(files, args.out, replace=args.replace, projects=projects)
    print(f"rendered {len(files)} pages and downloads into {args.out}")
    return EXIT_OK


def _command_line(args: argparse.Namespace) -> list[str]:
    return list(args.command_line[1:] if args.command_line[:1] == ["--"] else args.command_line)


def _cmd_watch(args: argparse.Namespace) -> int:
    from catalog_docs.site.watch import main_say, watch

    return watch(args.catalog, out_dir_beside(args.catalog), _command_line(args), say=main_say)


def _cmd_build(args: argparse.Namespace) -> int:
    from catalog_docs.site.watch import build

    return build(args.catalog, out_dir_beside(args.catalog), _command_line(args), publish=args.publish)


def _cmd_clean(args: argparse.Namespace) -> int:
    from catalog_docs.catalog.locate import find_project
    from catalog_docs.layout import BUILD_ROOT
    from catalog_docs.site.folders import clean

    project = find_project()
    if project is None:
        raise CatalogDocsError("no project found here or above (a folder whose catalog/ holds a catalogue): "
                               "run catalog-docs clean inside the repository")
    removed = clean(project)
    print(f"removed {', '.join(removed) or 'nothing'} (site/ and {BUILD_ROOT}/ of {os.path.relpath(project)}); "
          "docs/ is never touched")
    return EXIT_OK


def _cmd_diff(args: argparse.Namespace) -> int:
    from catalog_docs.compare.command import DiffRequest, run_diff
    from catalog_docs.compare.gate import AcknowledgementsInvalid

    request = DiffRequest(catalog_dir=args.catalog, sides=tuple(args.sides), against=args.against, fmt=args.format,
                          exit_code=args.exit_code, fail_on=tuple(args.fail_on), acknowledged=args.acknowledged,
                          new_name=args.new_name, site_url=args.site_url, max_chars=args.max_chars)
    try:
        result = run_diff(request)
    except AcknowledgementsInvalid as exc:  # the gate cannot run: a usage error, not a failed gate or catalogue
        print(exc.report(), file=sys.stderr)
        return EXIT_USAGE
    sys.stdout.write(result.output)
    for warning in result.warnings:
        print(f"catalog-docs: warning: {warning}", file=sys.stderr)
    return EXIT_INVALID if result.fails else EXIT_OK


def _cmd_export(args: argparse.Namespace) -> int:
    from catalog_docs.catalog.validate import load_catalog
    from catalog_docs.downloads.export import export_text

    text = export_text(load_catalog(args.catalog), args.format)
    if args.out is None:
        sys.stdout.write(text)
    else:
        from catalog_docs.catalog.locate import find_project
        from catalog_docs.writing import refuse_sources, write_path

        refuse_sources(args.out, [args.catalog.resolve().parent, *filter(None, [find_project()])], "write the export")
        write_path(args.out, text.encode("utf-8"), "write the export")
        print(f"wrote {args.out}", file=sys.stderr)
    return EXIT_OK


def _os_error(exc: OSError) -> str:
    """An OSError in words, with the path it names when that is not the one the message already names."""
    return f"{exc.strerror}: {exc.filename}" if exc.filename else str(exc.strerror or exc)


def _cmd_new_label(args: argparse.Namespace) -> int:
    from catalog_docs.authoring.new_label import new_label

    made = new_label(args.catalog, args.label, args.source_label)
    where = f"after {made.after!r}" if made.after is not None else "first"
    print(f"wrote {made.path}, a copy of {args.source_label!r} with its label changed")
    print(f"added {args.label!r} to version_labels in {args.catalog / 'service.yaml'}, {where}")
    print(f"next: edit {made.path} to what the source states, then run: catalog-docs check")
    return EXIT_OK


def _cmd_synth(args: argparse.Namespace) -> int:
    from catalog_docs.authoring.synth import SynthSpec, write_synth

    spec = SynthSpec(operations=args.operations, versions=args.versions, plans=args.plans, seed=args.seed)
    count = write_synth(spec, args.out)
    print(f"wrote a synthetic catalogue into {args.out}: {count} files, {spec.operations} operations, "
          f"{spec.versions} version labels, {spec.plans} plan entries (seed {spec.seed})")
    return EXIT_OK


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("catalog-docs")
    except PackageNotFoundError:  # run from the source tree without installing
        return "unknown (not installed)"


def _add_command(sub: argparse._SubParsersAction[argparse.ArgumentParser], name: str, *, help: str,
                 description: str, usage: str | None = None, exits: str = "") -> argparse.ArgumentParser:
    """Add one sub-command, with the exit codes table as its epilog, as every command shows it (then `exits`,
    what the command's own codes mean)."""
    return sub.add_parser(name, help=help, description=description, usage=usage, epilog=EPILOG + exits,
                          formatter_class=argparse.RawDescriptionHelpFormatter)


def sub_commands(parser: argparse.ArgumentParser) -> argparse._SubParsersAction[argparse.ArgumentParser]:
    """The parser's sub-commands: `.choices` maps each name to its parser, in the order --help lists them."""
    (action,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return action


def build_parser() -> argparse.ArgumentParser:
    """The argument parser for every sub-command."""
    parser = argparse.ArgumentParser(prog="catalog-docs", description=DESCRIPTION, epilog=EPILOG,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    sub = parser.add_subparsers(title="commands", dest="command", required=True, metavar="COMMAND")
    catalog_help = "catalogue folder (default: catalog/ of the nearest folder upwards that has one)"
    check = _add_command(
        sub, "check", help="validate the catalogue and print its counts",
        description="Validate every catalogue file against its schema and the cross-file rules. Prints the "
                    "counts, or every error as file:line:column: key: expected, found (hint).")
    check.add_argument("--catalog", type=Path, default=None, help=catalog_help)
    check.set_defaults(func=_cmd_check)
    render = _add_command(
        sub, "render", help="write the Markdown pages and downloads into a new folder, for anyone who wants files",
        usage="catalog-docs render --out DIR [--replace] [--publish] [--catalog DIR]",
        description="Render the site's Markdown pages and downloads from the catalogue into DIR, a new or empty "
                    "folder (a folder that is not empty is refused unless --replace; a link is never written "
                    "through). A catalogue with errors writes nothing. The site's builds do not need it: the "
                    "mkdocs plugin adds the pages in memory, and `catalog-docs build` serves other engines.")
    render.add_argument("--catalog", type=Path, default=None, help=catalog_help)
    render.add_argument("--out", type=Path, required=True, help="the folder to write (new or empty)")
    render.add_argument("--replace", action="store_true",
                        help="replace DIR whole when it is not empty (it is swapped for the new folder)")
    render.add_argument("--publish", action="store_true",
                        help="refuse draft version labels, as the strict build does")
    render.set_defaults(func=_cmd_render)
    engine_help = ("the pages are rendered into a folder of the tool's own under build/catalog-docs/ (with copies of "
                   "the hand-written files of docs/), which the engine reads through mkdocs.yml's docs_dir; the "
                   "folder is removed when COMMAND exits")
    build = _add_command(
        sub, "build", help="build the site with an engine that runs no plugins (Zensical)",
        usage="catalog-docs build [--publish] [--catalog DIR] -- COMMAND ...",
        description=f"Render the catalogue and run COMMAND (an engine's build: zensical build ...) on it: "
                    f"{engine_help}. Exits with COMMAND's exit code. mkdocs and properdocs build through the plugin "
                    "instead.")
    build.add_argument("--catalog", type=Path, default=None, help=catalog_help)
    build.add_argument("--publish", action="store_true", help="refuse draft version labels (make site does)")
    build.add_argument("command_line", nargs=argparse.REMAINDER, metavar="-- COMMAND", help="the engine's build")
    build.set_defaults(func=_cmd_build)
    watch = _add_command(
        sub, "watch", help="serve with an engine that runs no plugins, rendering again on every change",
        usage="catalog-docs watch [--catalog DIR] [-- COMMAND ...]",
        description=f"Render, start COMMAND (an engine's server: zensical serve ...), and render again whenever a "
                    f"file under the catalogue folder, the templates or docs/ changes: {engine_help}. While the "
                    "catalogue has errors, every page shows them at its top. mkdocs and properdocs serve render "
                    "through the plugin instead.")
    watch.add_argument("--catalog", type=Path, default=None, help=catalog_help)
    watch.add_argument("command_line", nargs=argparse.REMAINDER, metavar="-- COMMAND",
                       help="the server to run beside the watcher")
    watch.set_defaults(func=_cmd_watch)
    clean = _add_command(
        sub, "clean", help="remove site/ and the tool's own build folders (docs/ is never touched)",
        description="Remove the built site (site/) and the build folders under build/catalog-docs/ of the "
                    "project around the current folder; a link there is refused, never followed.")
    clean.set_defaults(func=_cmd_clean)
    new = _add_command(
        sub, "new-label", help="add a version label, starting from a copy of an existing one",
        usage='catalog-docs new-label NEW --from OLD [--catalog DIR]',
        description="Add version label NEW: write versions/<NEW>.yaml as a copy of OLD's file (same plan table, "
                    "plan entries and values) and list NEW in service.yaml's version_labels, in version order "
                    "(else right after OLD). Comments in both files are kept. Then edit the new file.")
    new.add_argument("label", metavar="NEW", help="the new version label, e.g. 'UPI_N 1.2.0'")
    new.add_argument("--from", dest="source_label", metavar="OLD", required=True,
                     help="the existing version label to copy, e.g. 'UPI_N 1.1.0'")
    new.add_argument("--catalog", type=Path, default=None, help=catalog_help)
    new.set_defaults(func=_cmd_new_label)
    diff = _add_command(
        sub, "diff", help="compare two version labels or plan entries, or the catalogue at a git revision",
        usage="catalog-docs diff FROM TO [options]\n       catalog-docs diff --against REV [options]",
        description="Compare FROM with TO (each a version label 'UPI_N 1.0.1' or a label and plan entry "
                    "'UPI_N 1.0.1:UPI_N 1.0.0'), or with --against REV the catalogue at a git revision with the "
                    "working tree.", exits=DIFF_EXITS)
    diff.add_argument("sides", nargs="*", metavar="FROM TO", help="two labels, or two LABEL:PLAN pairs")
    diff.add_argument("--against", metavar="REV",
                      help="compare the catalogue at git revision REV with the working tree")
    diff.add_argument("--format", choices=("text", "markdown", "json"), default="text",
                      help="text for a terminal (default), markdown for a pull-request comment, json for tools")
    diff.add_argument("--exit-code", action="store_true",
                      help="exit 1 when there is any difference, 0 when there is none (see exit codes)")
    diff.add_argument("--fail-on", metavar="KIND[,KIND...]", action="append", default=[],
                      help="review gate: exit 1 when a change of one of these kinds (the JSON kind, e.g. "
                           "value-changed) is not acknowledged; KIND:published only counts changes of version "
                           "labels published in the earlier catalogue (not drafts there). An unknown kind exits 2")
    diff.add_argument("--acknowledged", metavar="FILE", type=Path, default=None,
                      help="YAML list of {id: CHANGE-ID, reason: TEXT}: those changes do not fail the gate and show "
                           "as acknowledged with their reason; ids that match no change are reported as stale. "
                           "A file that does not check exits 2, each problem at file:line:column; an empty reason "
                           "acknowledges nothing and is named in the verdict. Acknowledging a "
                           "plan entry's or a label's removal or addition also acknowledges the values it implies")
    diff.add_argument("--max-chars", metavar="N", type=int, default=None,
                      help="with --format markdown: the most characters the comment may have (default 64,000, "
                           "under GitHub's 65,536); past it, ids, table rows and then whole sections are left out "
                           "between records, every fold stays closed, and a last line says what was left out")
    diff.add_argument("--new-name", metavar="TEXT", default=None,
                      help="with --against: what to call the working tree side (default: its git branch, or short "
                           "commit when detached); in CI, the pull request's head branch")
    diff.add_argument("--site-url", metavar="URL", default=None,
                      help="the published site's address (default: $SITE_URL): the Markdown links each change "
                           "to its row on the site's compare pages")
    diff.add_argument("--catalog", type=Path, default=None, help=catalog_help)
    diff.set_defaults(func=_cmd_diff)
    export = _add_command(
        sub, "export", help="write the catalogue as JSON, the lock matrix as CSV, or OpenAPI 3.1",
        description="Write the catalogue in another format, to standard output or --out FILE: the same files the "
                    "site publishes under /downloads/.")
    export.add_argument("--format", choices=("json", "csv", "openapi"), required=True,
                        help="json: the model; csv: the lock matrix; openapi: an OpenAPI 3.1 YAML document")
    export.add_argument("--out", type=Path, default=None, help="write to FILE instead of standard output")
    export.add_argument("--catalog", type=Path, default=None, help=catalog_help)
    export.set_defaults(func=_cmd_export)
    synth = _add_command(
        sub, "synth", help="write a synthetic (fake) catalogue of any size, for benchmarks",
        description="Write an obviously fake, valid catalogue of the given size into --out (the same files for "
                    "the same seed), for benchmarks and tests.")
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
        if hasattr(args, "catalog"):
            args.catalog = find_catalog_dir(args.catalog)
        command: Callable[[argparse.Namespace], int] = args.func
        return command(args)
    except CatalogDocsError as exc:
        # Each error on its own line (a multi-line report stays lines, never one line with escapes).
        sys.stderr.write(exc.report() + "\n")
        return _exit_code(exc)
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader went away (`catalog-docs diff ... | head`): stop quietly, as git does, and keep
        # Python from reporting the pipe again when it flushes stdout at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
    except OSError as exc:
        # An environment error no command turned into words (a folder where a file must go, a full disk):
        # one line, not a traceback.
        sys.stderr.write(CatalogDocsError(f"{_os_error(exc)}").report() + "\n")
        return EXIT_USAGE


def _exit_code(exc: CatalogDocsError) -> int:
    """An invalid catalogue exits 1 wherever it is found (the working tree or a git revision), as does a draft
    that render --publish refuses; every other error exits 2."""
    from catalog_docs.catalog.drafts import DraftRefused

    return EXIT_INVALID if isinstance(exc, DraftRefused) else exc.exit_code


if __name__ == "__main__":
    sys.exit(main())
