"""The anchor of `bench_serve_load.py`: the example LangChain tools as a bare mcp SDK server (FastMCP) over
streamable HTTP, each tool calling the same function the vendored tool calls. What the same tools cost
served by the SDK alone. Run: python bench/serve_bare.py PORT (with the repository on PYTHONPATH)."""

import sys

from mcp.server.fastmcp import FastMCP

from examples.langchain_tools import count_words as langchain_count_words

server = FastMCP("bare", log_level="WARNING", port=int(sys.argv[1]))


@server.tool()
def count_words(text: str, unique: bool = False) -> int:
    """Count the words in a text."""
    return langchain_count_words.invoke({"text": text, "unique": unique})


if __name__ == "__main__":
    server.run("streamable-http")
