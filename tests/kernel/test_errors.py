"""One error module: every error minors raises on purpose is defined in `minors.errors`,
derives from `MinorsError`, and malformed input is also a `ValueError`."""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import pkgutil

import minors
from minors import errors


def _modules() -> list[str]:
    found = []
    for info in pkgutil.walk_packages(minors.__path__, "minors."):
        if info.name.startswith("minors.testing") or info.name == "minors.__main__":
            continue  # needs Hypothesis; it defines no error either (checked in test_testing)
        if info.name.startswith("minors.openspiel") and not importlib.util.find_spec("pyspiel"):
            continue  # needs OpenSpiel (the openspiel extra), not installed here
        found.append(info.name)
    return found


def test_every_error_class_is_defined_in_the_error_module() -> None:
    """No public exception class is defined anywhere but `minors.errors`."""
    elsewhere = []
    for name in _modules():
        if name == "minors.errors":
            continue
        module = importlib.import_module(name)
        for attr, value in vars(module).items():
            if (
                inspect.isclass(value)
                and issubclass(value, BaseException)
                and value.__module__ == name
                and not attr.startswith("_")
            ):
                elsewhere.append(f"{name}.{attr}")
    assert elsewhere == []


def test_every_error_is_a_minors_error_and_input_errors_are_value_errors() -> None:
    """Each class of `minors.errors` derives from MinorsError; those for malformed input from
    ValueError too."""
    classes = [getattr(errors, n) for n in errors.__all__]
    exceptions = [c for c in classes if inspect.isclass(c) and issubclass(c, BaseException)]
    assert len(exceptions) >= 20
    assert all(issubclass(c, errors.MinorsError) for c in exceptions)
    for malformed in (
        errors.TableError, errors.FieldError, errors.CommandError, errors.ScenarioError,
        errors.MomentError, errors.YearMonthError, errors.StateError, errors.RulebookError,
        errors.ParameterError,
    ):  # fmt: skip
        assert issubclass(malformed, ValueError), malformed
    assert issubclass(errors.UnknownNameError, LookupError)
    assert issubclass(errors.LogWriteError, OSError)
