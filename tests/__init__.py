"""The tests of minors, a package so that test modules import each other by full name
(`from tests.rules82.test_scenarios import CASES`) and files of one name may sit in two
folders. `tests/paths.py` says where the checkout, the data and the docs are."""
