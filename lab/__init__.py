"""The lab: tools of experiments that did not ship. Not part of the wheel (pyproject includes only the product's packages)."""
