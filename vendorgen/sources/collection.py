"""Hub collections: the tool Spaces a collection lists, each vendored as a `hub:` source.

A collection holds no code of its own, so this kind has no `inspect`, `build`
or template: it only says which sources it stands for (`members`), and the
pipeline vendors each of them, all or nothing unless `--keep-going`. As in
smolagents' `ToolCollection.from_hub`, only Space items count (models,
datasets, papers and nested collections are ignored); unlike it, the order is
stable (sorted by Space id) and every Space is pinned to a commit.
"""

from __future__ import annotations

from vendorgen.errors import UsageError, VendorgenError
from vendorgen.sources.base import TRUST_NOTE, AddOptions, Inspection, Source
from vendorgen.sources.hub_client import bound_hub_requests, hub_errors, within_deadline
from vendorgen.text import limits
from vendorgen.waits import Waits


def members(target: str, options: AddOptions, waits: Waits) -> list[str]:
    """`hub:owner/space` for every Space of the collection `target`, sorted."""
    if not options.trust:
        raise UsageError(
            f"collection:{target} is code from the Hub that runs in your process when you import it; "
            "pass --trust once you accept that (the counterpart of trust_remote_code=True), then review the files"
        )
    from huggingface_hub import HfApi  # lazy: only hub/collection sources pay for it

    bound_hub_requests()
    api = HfApi(token=options.token or None)
    with hub_errors(f"collection {target}"), waits.shown(f"collection:{target}"):
        collection = within_deadline(
            lambda: api.get_collection(target), f"the Hub at {api.endpoint} for collection {target}"
        )
    spaces = sorted({item.item_id for item in collection.items if item.item_type == "space"})
    limits.TOOLS.check(len(spaces), f"collection {target}")
    if not spaces:
        raise VendorgenError(f"collection {target} lists no Spaces (models, datasets and papers are not tools)")
    return [f"hub:{space}" for space in spaces]


class CollectionSource(Source):
    """A Hub collection: stands for the `hub:` source of each tool Space it lists."""

    kind = "collection"
    target = "collection:<owner/slug>"
    help_note = TRUST_NOTE
    options = frozenset({"trust", "keep_going", "token"})
    help = "collection: each tool Space it lists is vendored as a hub: source."
    options_hint = "to name one Space's module or pick its class, vendor that Space with hub:owner/space"

    # The hook calls this module's function of the same name (a method's body sees the module's names).
    def members(self, target: str, options: AddOptions, context: Inspection) -> list[str]:
        return members(target, options, context.waits)
