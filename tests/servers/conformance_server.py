"""The reference server for the official MCP conformance suite's 32 server scenarios, on mcp 1.x's FastMCP.

Adapted from the python-sdk's conformance "everything" server (examples/servers/everything-server,
v1.29.0), with the JSON Schema 2020-12 tool of its later releases. The scenarios name the tools,
resources and prompts they call (`test_simple_text`, `test://static-text`, `test_simple_prompt`...).
Run it as one of::

    python -m tests.servers.conformance_server stdio
    python -m tests.servers.conformance_server http --port N   # streamable-http at http://127.0.0.1:N/mcp

tests/test_conformance_server.py runs the suite against it directly and through `vendorgen serve`.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
from typing import Any

from mcp.server.fastmcp import Context, FastMCP
from mcp.server.fastmcp.prompts.base import UserMessage
from mcp.server.streamable_http import EventCallback, EventMessage, EventStore
from mcp.types import (
    AudioContent,
    Completion,
    CompletionArgument,
    CompletionContext,
    EmbeddedResource,
    ImageContent,
    JSONRPCMessage,
    PromptReference,
    ResourceTemplateReference,
    SamplingMessage,
    TextContent,
    TextResourceContents,
)
from pydantic import AnyUrl, BaseModel, Field

# A 1x1 PNG and a tiny WAV, as the scenarios expect them.
TEST_IMAGE_BASE64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="
TEST_AUDIO_BASE64 = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA="


class InMemoryEventStore(EventStore):
    """Every event of the process, so a client that lost its SSE stream resumes it (server-sse-polling)."""

    def __init__(self) -> None:
        self.events: list[tuple[str, str, JSONRPCMessage | None]] = []

    async def store_event(self, stream_id: str, message: JSONRPCMessage | None) -> str:
        event_id = str(len(self.events) + 1)
        self.events.append((stream_id, event_id, message))
        return event_id

    async def replay_events_after(self, last_event_id: str, send_callback: EventCallback) -> str | None:
        stream = next((stream for stream, event_id, _ in self.events if event_id == last_event_id), None)
        if stream is None:
            return None
        for stream_id, event_id, message in self.events:
            if stream_id == stream and int(event_id) > int(last_event_id) and message is not None:
                await send_callback(EventMessage(message, event_id))
        return stream


mcp = FastMCP(
    name="mcp-conformance-test-server", event_store=InMemoryEventStore(), retry_interval=100, log_level="WARNING"
)


@mcp.tool()
def test_simple_text() -> str:
    """Tests simple text content response"""
    return "This is a simple text response for testing."


@mcp.tool()
def test_image_content() -> list[ImageContent]:
    """Tests image content response"""
    return [ImageContent(type="image", data=TEST_IMAGE_BASE64, mimeType="image/png")]


@mcp.tool()
def test_audio_content() -> list[AudioContent]:
    """Tests audio content response"""
    return [AudioContent(type="audio", data=TEST_AUDIO_BASE64, mimeType="audio/wav")]


@mcp.tool()
def test_embedded_resource() -> list[EmbeddedResource]:
    """Tests embedded resource content response"""
    resource = TextResourceContents(
        uri=AnyUrl("test://embedded-resource"), mimeType="text/plain", text="This is an embedded resource content."
    )
    return [EmbeddedResource(type="resource", resource=resource)]


@mcp.tool()
def test_multiple_content_types() -> list[TextContent | ImageContent | EmbeddedResource]:
    """Tests response with multiple content types (text, image, resource)"""
    resource = TextResourceContents(
        uri=AnyUrl("test://mixed-content-resource"), mimeType="application/json", text='{"test": "data", "value": 123}'
    )
    return [
        TextContent(type="text", text="Multiple content types test:"),
        ImageContent(type="image", data=TEST_IMAGE_BASE64, mimeType="image/png"),
        EmbeddedResource(type="resource", resource=resource),
    ]


@mcp.tool()
async def test_tool_with_logging(ctx: Context) -> str:  # type: ignore[type-arg]
    """Tests tool that emits log messages during execution"""
    await ctx.info("Tool execution started")
    await asyncio.sleep(0.05)
    await ctx.info("Tool processing data")
    await asyncio.sleep(0.05)
    await ctx.info("Tool execution completed")
    return "Tool with logging executed successfully"


@mcp.tool()
async def test_tool_with_progress(ctx: Context) -> str:  # type: ignore[type-arg]
    """Tests tool that reports progress notifications"""
    await ctx.report_progress(progress=0, total=100, message="Completed step 0 of 100")
    await asyncio.sleep(0.05)
    await ctx.report_progress(progress=50, total=100, message="Completed step 50 of 100")
    await asyncio.sleep(0.05)
    await ctx.report_progress(progress=100, total=100, message="Completed step 100 of 100")
    meta = ctx.request_context.meta
    return str(meta.progressToken if meta else 0)


@mcp.tool()
async def test_sampling(prompt: str, ctx: Context) -> str:  # type: ignore[type-arg]
    """Tests server-initiated sampling (LLM completion request)"""
    try:
        result = await ctx.session.create_message(
            messages=[SamplingMessage(role="user", content=TextContent(type="text", text=prompt))],
            max_tokens=100,
            related_request_id=ctx.request_id,
        )
    except Exception as exc:
        return f"Sampling not supported or error: {exc}"
    content: Any = result.content
    return f"LLM response: {content.text if content.type == 'text' else 'No response'}"


class UserResponse(BaseModel):
    response: str = Field(description="User's response")


@mcp.tool()
async def test_elicitation(message: str, ctx: Context) -> str:  # type: ignore[type-arg]
    """Tests server-initiated elicitation (user input request)"""
    try:
        result = await ctx.elicit(message=message, schema=UserResponse)
    except Exception as exc:
        return f"Elicitation not supported or error: {exc}"
    content = result.data.model_dump_json() if result.action == "accept" else "{}"
    return f"User response: action={result.action}, content={content}"


class SEP1034DefaultsSchema(BaseModel):
    """Default values for every primitive type (SEP-1034)."""

    name: str = Field(default="John Doe", description="User name")
    age: int = Field(default=30, description="User age")
    score: float = Field(default=95.5, description="User score")
    status: str = Field(
        default="active", description="User status", json_schema_extra={"enum": ["active", "inactive", "pending"]}
    )
    verified: bool = Field(default=True, description="Verification status")


@mcp.tool()
async def test_elicitation_sep1034_defaults(ctx: Context) -> str:  # type: ignore[type-arg]
    """Tests elicitation with default values for all primitive types (SEP-1034)"""
    try:
        result = await ctx.elicit(message="Please provide user information", schema=SEP1034DefaultsSchema)
    except Exception as exc:
        return f"Elicitation not supported or error: {exc}"
    content = result.data.model_dump_json() if result.action == "accept" else "{}"
    return f"Elicitation result: action={result.action}, content={content}"


class EnumSchemasTestSchema(BaseModel):
    """Every enum form of SEP-1330."""

    untitledSingle: str = Field(
        description="Simple enum without titles", json_schema_extra={"enum": ["active", "inactive", "pending"]}
    )
    titledSingle: str = Field(
        description="Enum with titled options (oneOf)",
        json_schema_extra={
            "oneOf": [
                {"const": "low", "title": "Low Priority"},
                {"const": "medium", "title": "Medium Priority"},
                {"const": "high", "title": "High Priority"},
            ]
        },
    )
    untitledMulti: list[str] = Field(
        description="Multi-select without titles",
        json_schema_extra={"items": {"type": "string", "enum": ["read", "write", "execute"]}},
    )
    titledMulti: list[str] = Field(
        description="Multi-select with titled options",
        json_schema_extra={
            "items": {
                "anyOf": [
                    {"const": "feature", "title": "New Feature"},
                    {"const": "bug", "title": "Bug Fix"},
                    {"const": "docs", "title": "Documentation"},
                ]
            }
        },
    )
    legacyEnum: str = Field(
        description="Legacy enum with enumNames",
        json_schema_extra={
            "enum": ["small", "medium", "large"],
            "enumNames": ["Small Size", "Medium Size", "Large Size"],
        },
    )


@mcp.tool()
async def test_elicitation_sep1330_enums(ctx: Context) -> str:  # type: ignore[type-arg]
    """Tests elicitation with enum schema variations per SEP-1330"""
    try:
        result = await ctx.elicit(
            message="Please select values using different enum schema types", schema=EnumSchemasTestSchema
        )
    except Exception as exc:
        return f"Elicitation not supported or error: {exc}"
    content = result.data.model_dump_json() if result.action == "accept" else "{}"
    return f"Elicitation completed: action={result.action}, content={content}"


@mcp.tool()
def test_error_handling() -> str:
    """Tests error response handling"""
    raise RuntimeError("This tool intentionally returns an error for testing")


# Every JSON Schema 2020-12 keyword the json-schema-2020-12 scenario looks for in tools/list.
JSON_SCHEMA_2020_12_INPUT_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "$defs": {
        "address": {
            "$anchor": "addressDef",
            "type": "object",
            "properties": {"street": {"type": "string"}, "city": {"type": "string"}},
        }
    },
    "properties": {
        "name": {"type": "string"},
        "address": {"$ref": "#/$defs/address"},
        "contactMethod": {"type": "string", "enum": ["phone", "email"]},
        "phone": {"type": "string"},
        "email": {"type": "string"},
    },
    "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
    "if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
    "then": {"required": ["phone"]},
    "else": {"required": ["email"]},
    "additionalProperties": False,
}


@mcp.tool(name="json_schema_2020_12_tool")
def json_schema_2020_12_tool() -> str:
    """Tests JSON Schema 2020-12 keyword preservation in tools/list (inputSchema installed below)."""
    return "json_schema_2020_12_tool"


# FastMCP derives a tool's schema from its signature; this one is the fixture's own.
mcp._tool_manager._tools["json_schema_2020_12_tool"].parameters = JSON_SCHEMA_2020_12_INPUT_SCHEMA


@mcp.tool()
async def test_reconnection(ctx: Context) -> str:  # type: ignore[type-arg]
    """Tests SSE polling by closing stream mid-call (SEP-1699)"""
    await ctx.info("Before disconnect")
    await ctx.close_sse_stream()
    await asyncio.sleep(0.2)  # the client reconnects meanwhile
    await ctx.info("After reconnect")
    return "Reconnection test completed"


@mcp.resource("test://static-text")
def static_text_resource() -> str:
    """A static text resource for testing"""
    return "This is the content of the static text resource."


@mcp.resource("test://static-binary")
def static_binary_resource() -> bytes:
    """A static binary resource (image) for testing"""
    return base64.b64decode(TEST_IMAGE_BASE64)


@mcp.resource("test://template/{id}/data")
def template_resource(id: str) -> str:  # noqa: A002 - the template's parameter name
    """A resource template with parameter substitution"""
    return json.dumps({"id": id, "templateTest": True, "data": f"Data for ID: {id}"})


@mcp.resource("test://watched-resource")
def watched_resource() -> str:
    """A resource that can be subscribed to for updates"""
    return "Watched resource content"


@mcp.prompt()
def test_simple_prompt() -> list[UserMessage]:
    """A simple prompt without arguments"""
    return [UserMessage(role="user", content=TextContent(type="text", text="This is a simple prompt for testing."))]


@mcp.prompt()
def test_prompt_with_arguments(arg1: str, arg2: str) -> list[UserMessage]:
    """A prompt with required arguments"""
    text = f"Prompt with arguments: arg1='{arg1}', arg2='{arg2}'"
    return [UserMessage(role="user", content=TextContent(type="text", text=text))]


@mcp.prompt()
def test_prompt_with_embedded_resource(resourceUri: str) -> list[UserMessage]:  # noqa: N803 - the scenario's name
    """A prompt that includes an embedded resource"""
    resource = TextResourceContents(
        uri=AnyUrl(resourceUri), mimeType="text/plain", text="Embedded resource content for testing."
    )
    return [
        UserMessage(role="user", content=EmbeddedResource(type="resource", resource=resource)),
        UserMessage(role="user", content=TextContent(type="text", text="Please process the embedded resource above.")),
    ]


@mcp.prompt()
def test_prompt_with_image() -> list[UserMessage]:
    """A prompt that includes image content"""
    return [
        UserMessage(role="user", content=ImageContent(type="image", data=TEST_IMAGE_BASE64, mimeType="image/png")),
        UserMessage(role="user", content=TextContent(type="text", text="Please analyze the image above.")),
    ]


SUBSCRIPTIONS: set[str] = set()


@mcp._mcp_server.set_logging_level()  # type: ignore[misc, no-untyped-call]
async def set_logging_level(level: str) -> None:
    """Accepted: the scenario checks the answer, not what the server logs afterwards."""


@mcp._mcp_server.subscribe_resource()  # type: ignore[misc, no-untyped-call]
async def subscribe(uri: AnyUrl) -> None:
    SUBSCRIPTIONS.add(str(uri))


@mcp._mcp_server.unsubscribe_resource()  # type: ignore[misc, no-untyped-call]
async def unsubscribe(uri: AnyUrl) -> None:
    SUBSCRIPTIONS.discard(str(uri))


@mcp.completion()
async def complete(
    ref: PromptReference | ResourceTemplateReference, argument: CompletionArgument, context: CompletionContext | None
) -> Completion:
    """No suggestions: the scenario checks the answer's shape."""
    return Completion(values=[], total=0, hasMore=False)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("transport", choices=["stdio", "http"])
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args()
    if args.transport == "stdio":
        mcp.run("stdio")
        return
    mcp.settings.port = args.port
    mcp.run("streamable-http")


if __name__ == "__main__":
    main()
