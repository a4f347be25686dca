"""vendorgen: vendor remote agent tools as reviewable smolagents source code."""

__version__ = "0.1.0"

# Bumped whenever the built-in templates change what they emit, so `check` can
# tell a template upgrade from a local edit.
TEMPLATES_VERSION = "2"
