"""A Gradio app whose endpoint takes a union of objects: Notion's page or database parent (issue 23's shape).

Run with ``python tests/servers/gradio_shapes.py --port N`` (127.0.0.1 only). `gr.api` describes a
parameter by its type hint (gradio_client's `python_type_to_json_schema`): a union of TypedDicts is an
`anyOf` of object schemas, each with its `const` discriminator. The endpoint answers with what it got.
"""

from __future__ import annotations

import argparse
import json
import os
from typing import Literal, TypedDict

os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")

import gradio as gr  # noqa: E402


class PageParent(TypedDict):
    type: Literal["page_id"]
    page_id: str


class DatabaseParent(TypedDict):
    type: Literal["database_id"]
    database_id: str


def post_page(parent: PageParent | DatabaseParent, title: str) -> str:
    """Create a page under a page or a database."""
    return json.dumps({"parent": parent, "title": title}, sort_keys=True)


def build_demo() -> gr.Blocks:
    with gr.Blocks(analytics_enabled=False) as demo:
        gr.api(post_page, api_name="post_page")
    return demo


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Gradio app taking a union of objects")
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args(argv)
    build_demo().launch(
        server_name="127.0.0.1", server_port=args.port, share=False, quiet=True, ssr_mode=False, mcp_server=False
    )


if __name__ == "__main__":
    main()
