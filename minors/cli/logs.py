"""The commands of audit logs (docs/audit-log.md): `minors log ...`, `replay`, `continue`."""

from __future__ import annotations

import re
import sys
from typing import Any

import click

from ..errors import LogUnavailable, MinorsError
from .common import errors_exit_2, force_option, load_rulebook, print_game, rulebook_option
from .files import check_outputs
from .output import echo_json, exit_2, fail, show

__all__ = ["continue_command", "log", "replay"]

_HEAD = re.compile(r"^[0-9a-fA-F]{64}$")


@click.group()
def log() -> None:
    """Read, check, seal and repair audit logs (docs/audit-log.md)."""


@log.command("verify")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option(
    "--extends",
    "old",
    metavar="OLD",
    type=click.Path(dir_okay=False),
    help="Also prove the log begins with the log OLD and adds to it.",
)
@click.option("--head", "head", metavar="HASH", help="Also prove the log's head is HASH.")
@click.option(
    "--public-key",
    "public_key",
    metavar="FILE",
    type=click.Path(dir_okay=False),
    help="Also prove a seal by the key in FILE (from `minors log keygen`) signs the log.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the verdict as JSON.")
@rulebook_option
def log_verify(
    file: str,
    old: str | None,
    head: str | None,
    public_key: str | None,
    as_json: bool,
    rulebook_spec: str | None,
) -> None:
    """Check encoding and chain, replay every entry and compare every line.

    The log is replayed under the rulebook you name (rule 82 by default), never one the log
    names: a log written under another rulebook exits 2 and says which.

    Exit 0 when all holds, 1 when a check fails (naming the first bad entry), 2 when the
    log cannot be verified here at all.
    """
    from ..audit.log import load_key, verify
    from ..errors import LogFormatError
    from .progress import progress

    book = load_rulebook(rulebook_spec)
    try:
        if head is not None and not _HEAD.match(head):
            raise LogFormatError(f"--head {head[:80]!r}: a head is 64 hexadecimal digits")
        key = load_key(public_key) if public_key is not None else None
        with progress(f"verifying {file}", "lines") as advance:  # a bar on a terminal's stderr
            verdict = verify(
                file, extends=old, rulebook=book, progress=advance, head=head, public_key=key
            )
    except MinorsError as exc:
        exit_2(exc, as_json, "cannot verify")
    if as_json:
        echo_json(verdict.to_json())
    else:
        click.echo(verdict.describe())
        click.echo(f"head {verdict.head}")
    sys.exit(0 if verdict.ok else 1)


@log.command("show")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--turn", "turn", metavar="T", help="Only what happened in this turn: 1940-spring.")
@click.option("--minor", "minor", metavar="NAME", help="Only what concerns this minor.")
@click.option("--since", "since", type=int, metavar="SEQ", help="Only entries after SEQ.")
@click.option("--json", "as_json", is_flag=True, help="Print the entries and effects as JSON.")
@errors_exit_2
def log_show(
    file: str, turn: str | None, minor: str | None, since: int | None, as_json: bool
) -> None:
    """Show a log turn by turn: what changed, why, and the rule behind it. The filters keep
    the effects that match (not whole entries); a name is matched as everywhere (any case,
    aliases), and a name, turn or entry the log does not hold exits 2."""
    from ..audit.report import select, show_log

    if as_json:
        echo_json(select(file, turn=turn, minor=minor, since=since).to_json())
    else:
        show(show_log(file, turn=turn, minor=minor, since=since))


@log.command("head")
@click.argument("file", type=click.Path(dir_okay=False))
@errors_exit_2
def log_head(file: str) -> None:
    """Print the log's head: the hash of its closing line, which names the whole log (its
    chain is checked, its rules are not replayed). Publish it; `log verify --head` checks a
    log against it."""
    from ..audit.log import head

    click.echo(head(file))


@log.command("keygen")
@click.argument("key", type=click.Path(dir_okay=False))
@force_option
@errors_exit_2
def log_keygen(key: str, force: bool) -> None:
    """Write a new Ed25519 key pair: the private key to KEY (readable by you only), the
    public key to KEY.pub (give it to the players)."""
    from ..audit.signing import keygen

    check_outputs([("KEY", key), ("KEY.pub", f"{key}.pub")], [], force=force)
    private, public = keygen(key)
    click.echo(f"wrote {private} (private: keep it) and {public} (public: give it out)")


@log.command("seal")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option(
    "--key",
    "key",
    required=True,
    metavar="KEY",
    type=click.Path(dir_okay=False),
    help="The private key (from `minors log keygen`).",
)
@errors_exit_2
def log_seal(file: str, key: str) -> None:
    """Seal a closed log: append a line that signs its head with KEY, so that players can
    verify who sealed it (`log verify --public-key KEY.pub`)."""
    from ..audit.log import head, seal_log

    public = seal_log(file, key)
    click.echo(f"sealed {file}: head {head(file)}, key {public}")


@log.command("repair")
@click.argument("file", type=click.Path(dir_okay=False))
@errors_exit_2
def log_repair(file: str) -> None:
    """Trim a torn last line (a crash or a full disk cut it short) off a log, saying what
    was dropped; a log whose damage is elsewhere is left alone (exit 1)."""
    from ..audit.log import repair

    try:
        done = repair(file)
    except LogUnavailable as exc:
        fail(f"cannot repair: {exc}", 1 if "is damaged" in str(exc) else 2)
    click.echo(done.describe(file))


@click.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--until", "until", metavar="MOMENT", help="The moment to stop at.")
@click.option("--json", "as_json", is_flag=True, help="Print the JSON state.")
@click.option(
    "--log",
    "new_log",
    metavar="NEW",
    type=click.Path(dir_okay=False),
    help="Write a new log branching from that moment.",
)
@force_option
@rulebook_option
def replay(
    file: str,
    until: str | None,
    as_json: bool,
    new_log: str | None,
    force: bool,
    rulebook_spec: str | None,
) -> None:
    """The state a log gives at any moment, as `minors run` prints it (under the rulebook
    you name, rule 82 by default). A moment past the log's end exits 2."""
    from ..audit.log import FileSink
    from ..audit.log import replay as replay_log

    book = load_rulebook(rulebook_spec)
    try:
        check_outputs([("--log", new_log)], [file], force=force)
        game = replay_log(file, until, log=new_log, rulebook=book)
    except MinorsError as exc:
        exit_2(exc, as_json)
    sink = game.attach(None)
    if isinstance(sink, FileSink):
        sink.close(game)
    print_game(game, as_json)


@click.command("continue")
@click.argument("file", metavar="LOG", type=click.Path(dir_okay=False))
@click.argument("orders", metavar="ORDERS", type=click.Path(dir_okay=False))
@click.option(
    "--log",
    "new_log",
    required=True,
    metavar="NEW",
    type=click.Path(dir_okay=False),
    help="The log continued: LOG's lines, then the orders' (it verifies with --extends LOG).",
)
@click.option(
    "--until",
    "until",
    metavar="MOMENT",
    help="Play the orders stamped before MOMENT, then advance to it (the end of the turn).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the JSON state.")
@force_option
@rulebook_option
@errors_exit_2
def continue_command(
    file: str,
    orders: str,
    new_log: str,
    until: str | None,
    as_json: bool,
    force: bool,
    rulebook_spec: str | None,
) -> None:
    """Play this turn's ORDERS on the game LOG holds and write the log continued to NEW.

    ORDERS is a scenario file without `start` (docs/audit-log.md): its moments are at or
    after LOG's clock. Exit 0 when the orders are played, 3 when one breaks a rule (NEW
    ends before it), 2 when a file or value is malformed.
    """
    from ..scenario import ScenarioRuleViolation, continue_log

    book = load_rulebook(rulebook_spec)
    error: dict[str, Any] | None = None
    code = 0
    try:
        check_outputs([("--log", new_log)], [file, orders], force=force)
        game = continue_log(file, orders, new_log, until, rulebook=book)
    except ScenarioRuleViolation as exc:
        game, error, code = exc.game, exc.error_object(), 3
    print_game(game, as_json, error)
    if error is not None:
        click.echo(
            f"minors: command {error['command']} broke rule {error['rule']}: {error['message']}",
            err=True,
        )
    sys.exit(code)
