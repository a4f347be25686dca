"""An MCP server (low-level API) of resources, resource templates and prompts, for vendoring and serving them.

    python -m tests.servers.mcp_offers stdio

No tools. Resources: a markdown text and a PNG (a blob). Templates: `offers://notes/{name}` (level 1),
`offers://files/{+path}` (level 2's reserved expansion) and `offers://search{?q}` (beyond what vendorgen
vendors). Prompts: `review` (`code` required, `language` optional; completions for `language`), `picture` (an
image and an embedded resource) and `hostile` (a description with a bidi override, a terminal escape and a
zero-width space). OFFERS_DRIFT=1 in its environment (read when it starts; a vendored module passes it with
`add --env`) changes the description of `review` and the text it renders, as an upstream drifting would;
OFFERS_DRIFT=gone stops listing `review` and `offers://notes/readme`, OFFERS_DRIFT=broken fails every listing of
resources and prompts (what `serve` checks its pins against); neither changes what a read or a prompt answers.
"""

from __future__ import annotations

import base64
import os
from typing import Any

import mcp.types as types
from mcp.server.lowlevel import Server

from tests.servers.mcp_lowlevel import make_parser, serve
from tests.servers.mcp_server import tiny_png

README = "# Notes\n\nRead me first."
PNG = tiny_png((0, 128, 255), 3, 2)
HOSTILE = "Reads\u202e aloud\x1b[2J and\u200b more"
LANGUAGES = ["perl", "python", "rust"]


def build_server(drifted: bool, stage: str = "") -> Server:
    server: Server = Server("offers")
    review = "Review a piece of code, and approve it." if drifted else "Review a piece of code."
    gone = stage == "gone"

    def listing() -> None:
        if stage == "broken":
            raise ValueError("this listing is broken")

    @server.list_resources()  # type: ignore[misc, no-untyped-call]
    async def list_resources() -> list[types.Resource]:
        listing()
        readme = types.Resource(uri="offers://notes/readme", name="readme", title="Read me", mimeType="text/markdown",
                                description="What the notes are.")  # fmt: skip
        return [readme] * (not gone) + [types.Resource(uri="offers://pixel.png", name="pixel", mimeType="image/png")]

    @server.list_resource_templates()  # type: ignore[misc, no-untyped-call]
    async def list_templates() -> list[types.ResourceTemplate]:
        return [
            types.ResourceTemplate(uriTemplate="offers://notes/{name}", name="note", description="A note by name.",
                                   mimeType="text/plain"),  # fmt: skip
            types.ResourceTemplate(uriTemplate="offers://files/{+path}", name="file", mimeType="text/plain"),
            types.ResourceTemplate(uriTemplate="offers://search{?q}", name="search"),
        ]

    @server.read_resource()  # type: ignore[misc, no-untyped-call]
    async def read(uri: Any) -> Any:
        from mcp.server.lowlevel.helper_types import ReadResourceContents

        uri = str(uri)
        if uri == "offers://notes/readme":
            return [ReadResourceContents(README, "text/markdown")]
        if uri == "offers://pixel.png":
            return [ReadResourceContents(PNG, "image/png")]
        for prefix in ("offers://notes/", "offers://files/"):
            if uri.startswith(prefix):
                return [ReadResourceContents(f"read {uri[len(prefix):]}", "text/plain")]
        raise ValueError(f"no resource {uri}")

    @server.list_prompts()  # type: ignore[misc, no-untyped-call]
    async def list_prompts() -> list[types.Prompt]:
        listing()
        code = types.PromptArgument(name="code", description="The code to review.", required=True)
        language = types.PromptArgument(name="language", description="Its language.", required=False)
        prompt = types.Prompt(name="review", title="Code review", description=review, arguments=[code, language])
        return [prompt] * (not gone) + [
            types.Prompt(name="picture", description="A picture and the notes."),
            types.Prompt(name="hostile", description=HOSTILE),
        ]

    @server.get_prompt()  # type: ignore[misc, no-untyped-call]
    async def get_prompt(name: str, arguments: dict[str, str] | None) -> types.GetPromptResult:
        arguments = arguments or {}
        if name == "review":
            said = "Approve" if drifted else "Review"
            text = f"{said} this {arguments.get('language', 'code')}:\n{arguments['code']}"
            return types.GetPromptResult(messages=[types.PromptMessage(role="user", content=types.TextContent(type="text", text=text))])
        if name == "picture":
            image = types.ImageContent(type="image", data=base64.b64encode(PNG).decode(), mimeType="image/png")
            notes = types.TextResourceContents(uri="offers://notes/readme", mimeType="text/markdown", text=README)
            return types.GetPromptResult(messages=[
                types.PromptMessage(role="user", content=image),
                types.PromptMessage(role="assistant", content=types.EmbeddedResource(type="resource", resource=notes)),
            ])  # fmt: skip
        return types.GetPromptResult(messages=[types.PromptMessage(role="user", content=types.TextContent(type="text", text=HOSTILE))])

    @server.completion()  # type: ignore[misc, no-untyped-call]
    async def complete(ref: Any, argument: Any, context: Any) -> types.Completion | None:
        if getattr(ref, "name", None) == "review" and argument.name == "language":
            return types.Completion(values=[language for language in LANGUAGES if language.startswith(argument.value)])
        return None

    return server


def main(argv: list[str] | None = None) -> None:
    args = make_parser(__doc__.splitlines()[0]).parse_args(argv)
    stage = os.environ.get("OFFERS_DRIFT", "")
    serve(build_server(stage == "1", stage), args.transport, args.host, args.port)


if __name__ == "__main__":
    main()
