"""The `minors` pytest plugin: `pytest --minors-ruleset FILE` adds one item that runs
`minors.testing.MinorsStateMachine` under the overlays; without it, it does nothing and
imports neither Hypothesis nor the tables (docs/testing.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from _pytest._code.code import TracebackStyle

__all__ = ["RulesetItem"]


def pytest_addoption(parser: pytest.Parser) -> None:
    """`--minors-ruleset FILE` (repeatable) and `--minors-profile NAME`."""
    group = parser.getgroup("minors", "minors rules kernel (docs/testing.md)")
    group.addoption(
        "--minors-ruleset",
        action="append",
        default=[],
        metavar="FILE",
        help="Run minors' state machine with this overlay merged over the tables "
        "(repeatable, merged in order).",
    )
    group.addoption(
        "--minors-profile",
        default="minors-ci",
        metavar="NAME",
        help="The Hypothesis settings profile of that run (minors-ci or minors-thorough; "
        "default minors-ci).",
    )


def pytest_configure(config: pytest.Config) -> None:
    """Check what `--minors-ruleset` needs before anything runs: Hypothesis, overlays that
    load, a known profile."""
    overlays: list[str] = config.getoption("minors_ruleset")
    if not overlays:
        return
    try:
        import hypothesis
    except ImportError:
        from .testing import NEEDS_HYPOTHESIS

        raise pytest.UsageError(f"--minors-ruleset {NEEDS_HYPOTHESIS}") from None
    from hypothesis.errors import InvalidArgument

    from .errors import MinorsError
    from .ruleset.tables import load_ruleset
    from .testing.kit import MinorsStateMachine  # noqa: F401  (registers the profiles)

    try:
        load_ruleset(overlays)
    except MinorsError as exc:
        raise pytest.UsageError(f"--minors-ruleset: {exc}") from None
    profile: str = config.getoption("minors_profile")
    try:
        hypothesis.settings.get_profile(profile)
    except InvalidArgument:
        raise pytest.UsageError(f"--minors-profile: no Hypothesis profile {profile!r}") from None


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
) -> None:
    """Add the state-machine item when `--minors-ruleset` is given (first, so that `-k`
    and the other plugins see it)."""
    overlays: list[str] = config.getoption("minors_ruleset")
    if overlays:
        name = f"minors-ruleset[{'+'.join(Path(o).name for o in overlays)}]"
        items.append(
            RulesetItem.from_parent(
                session,
                name=name,
                nodeid=name,
                overlays=overlays,
                profile=config.getoption("minors_profile"),
            )
        )


def pytest_report_collectionfinish(config: pytest.Config) -> str | None:
    """Say that the item was added (pytest counts only what its collectors found)."""
    overlays: list[str] = config.getoption("minors_ruleset")
    if not overlays:
        return None
    return f"minors: + 1 item, MinorsStateMachine under {', '.join(overlays)}"


class RulesetItem(pytest.Item):
    """One run of `MinorsStateMachine` under the overlays given with `--minors-ruleset`."""

    def __init__(self, *, overlays: Sequence[str], profile: str, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.overlays = list(overlays)
        self.profile = profile

    def runtest(self) -> None:
        """Run the machine: Hypothesis prints the falsifying steps when an invariant fails."""
        from hypothesis import settings
        from hypothesis.stateful import run_state_machine_as_test

        from .testing.kit import MinorsStateMachine

        machine = type(
            "RulesetMachine",
            (MinorsStateMachine,),
            {"ruleset": self.overlays, "__doc__": f"MinorsStateMachine under {self.overlays}"},
        )
        run_state_machine_as_test(machine, settings=settings.get_profile(self.profile))

    def repr_failure(
        self, excinfo: pytest.ExceptionInfo[BaseException], style: TracebackStyle | None = None
    ) -> str:
        """The broken invariant and Hypothesis's falsifying steps, without its internals."""
        error = excinfo.value
        return "\n".join(
            [
                f"{type(error).__name__}: {error}",
                f"(MinorsStateMachine under {', '.join(self.overlays)})",
                *getattr(error, "__notes__", []),
            ]
        )

    def reportinfo(self) -> tuple[Path, int | None, str]:
        """Where the item comes from: the (first) overlay."""
        return Path(self.overlays[0]), None, self.name
