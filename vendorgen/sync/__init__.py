"""Keeping vendored modules in sync: one module per job, each returning data the CLI renders (vendorgen.cli.report).

Three texts of a module are compared:

- *on disk*: the file, possibly edited by the user;
- *base*: what its committed snapshot generates with this vendorgen, these
  templates and this config (offline);
- *upstream*: what the live source generates now (`--remote`, `update`, `diff`).

- `local`: one module here (file, snapshot, lock), and regenerating a snapshot; shared by all;
- `check`: `vendorgen check` and `list`, offline;
- `remote`: re-inspecting sources (`check --remote`, and upstream for `diff` and `update`);
- `diff`: `vendorgen diff`, upstream changes and local edits apart;
- `update`: planning an update (three-way merge from the text as written) and applying it;
- `history`: the text as vendorgen wrote it, from git;
- `remove`: forgetting modules.
"""
