"""The rules core: pure values in, verdicts out. Imports nothing outside this package."""
