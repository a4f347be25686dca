"""The files of the user's output package that are not modules of their own: what vendorgen ships into it.

- `shipped/`: the run-time files copied verbatim beside the generated modules (the core
  `_vendored_runtime.py`, one file per source kind) and the logic of the server module.
- `files`: what they are (names, hashes, the names they define); `sync`: which ones a directory
  needs and what add, check, update and remove do to them; `moved`: carrying a local edit into
  the file its code moved to; `serve`: the server module; `inline`: a module made to stand alone (push).
"""
