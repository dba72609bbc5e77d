"""`paperscope tag`, `status` and `saved`: the user's own layer from the command line.

Tags and statuses are written with the same service the app uses
(tui.services.annotations), keyed by each paper's stable identity, so what is set here is
seen there and survives a re-import.
"""

from __future__ import annotations

import argparse
import json
import sys

from index.models import READING_STATUSES
from index.search.user_layer import normalize_status
from index.text_safety import for_terminal, strip_controls
from tui.cli.context import CliContext, UserError
from tui.services.annotations import normalize_tag


def register(subparsers: argparse._SubParsersAction) -> None:
    """Adds `tag`, `status` and `saved` to the parser."""
    tag = subparsers.add_parser(
        "tag",
        help="add (+TAG) and remove (-TAG) your own tags on papers",
        description="paperscope tag ID... +TAG -TAG: ids are paperscope ids or citation keys",
    )
    # REMAINDER: `-toread` is a tag to remove, not an option.
    tag.add_argument("items", nargs=argparse.REMAINDER, metavar="ID... +TAG -TAG")
    tag.set_defaults(func=tag_command)

    status = subparsers.add_parser(
        "status",
        help="set the reading status of papers: " + " / ".join(READING_STATUSES),
        description="paperscope status ID... STATUS",
    )
    status.add_argument("items", nargs="+", metavar="ID... STATUS")
    status.set_defaults(func=status_command)

    saved = subparsers.add_parser("saved", help="list saved searches with their live counts")
    saved.add_argument("--delete", metavar="NAME", help="forget the saved search NAME")
    saved.add_argument("--rename", nargs=2, metavar=("OLD", "NEW"), help="rename a saved search")
    saved.add_argument("--json", action="store_true", help="one JSON object a line")
    saved.set_defaults(func=saved_command)


def _saved_or_fail(context: CliContext, done: bool) -> None:
    if not done:
        raise UserError(context.annotations.save_error or "could not save")


def tag_command(context: CliContext, args: argparse.Namespace) -> int:
    """Adds and removes tags; prints each paper's tags afterwards."""
    items: list[str] = list(args.items)
    add = [normalize_tag(i[1:]) for i in items if i.startswith("+")]
    remove = [normalize_tag(i[1:]) for i in items if i.startswith("-")]
    ids = [i for i in items if not i.startswith(("+", "-"))]
    if not ids:
        raise UserError("tag: name at least one paper id (see `paperscope list`)")
    if not [t for t in add + remove if t]:
        raise UserError("tag: give at least one +TAG to add or -TAG to remove")
    papers = context.resolve_papers(ids)
    store = context.annotations
    _saved_or_fail(context, store.change_tags(papers, add=add, remove=remove))
    for paper in papers:
        tags = " ".join(store.tags_of(paper)) or "(no tags)"
        print(for_terminal(f"{paper.id}: {tags}", one_line=True))
    return 0


def status_command(context: CliContext, args: argparse.Namespace) -> int:
    """Sets the reading status of every named paper."""
    *ids, status = args.items
    value = normalize_status(status)
    if value is None:
        raise UserError(
            f"unknown reading status {status!r}; use one of: " + ", ".join(READING_STATUSES)
        )
    if not ids:
        raise UserError("status: name at least one paper id before the status")
    papers = context.resolve_papers(ids)
    _saved_or_fail(context, context.annotations.set_status(papers, value))
    for paper in papers:
        print(for_terminal(f"{paper.id}: {value}", one_line=True))
    return 0


def saved_command(context: CliContext, args: argparse.Namespace) -> int:
    """Lists saved searches with how many papers each matches now; renames or deletes."""
    store = context.saved_searches
    if args.delete or args.rename:
        try:
            if args.delete:
                done = store.delete(args.delete)
            else:
                done = store.rename(*args.rename)
        except KeyError as error:
            raise UserError(
                f"no saved search named {error.args[0]!r}" + _known(store.names)
            ) from None
        except ValueError as error:
            raise UserError(str(error)) from None
        if not done:
            raise UserError(store.save_error or "could not save")
    from dataclasses import replace

    out = sys.stdout
    for name, request in store:
        result = context.engine.search(replace(request, limit=0, counts=False))
        if args.json:
            row = {
                "name": name,
                "count": result.total,
                "query": request.query,
                "filters": request.filter_count,
            }
            out.write(strip_controls(json.dumps(row, ensure_ascii=False)) + "\n")
        else:
            what = request.query or "(every paper)"
            if request.filter_count:
                what += f" + {request.filter_count} filter" + (
                    "s" if request.filter_count > 1 else ""
                )
            out.write(for_terminal(f"{result.total:>6}  {name}  {what}", one_line=True) + "\n")
    if not len(store):
        print("paperscope: no saved searches yet (search QUERY --save NAME)", file=sys.stderr)
    return 0


def _known(names: tuple[str, ...]) -> str:
    return "; saved: " + ", ".join(names) if names else "; there are no saved searches"
