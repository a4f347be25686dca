"""One real call of vendored code, run by a matrix venv's python (no vendorgen there).

`python client.py CONFIG_JSON CASE...` imports generated_example/ from disk, makes the call each
CASE names against the servers CONFIG_JSON gives, and prints {case: {"value": result} or
{"error": "Type: message"}} as JSON on the last line: one process per row, every case in it.
Only the standard library and what the generated code imports may be used here.
"""

from __future__ import annotations

import asyncio
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
TOOLS = REPO / "generated_example" / "tools"


class NoVendorgen(importlib.abc.MetaPathFinder):
    """Vendored code must run without vendorgen: importing it here is an error."""

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> None:
        if name == "vendorgen" or name.startswith("vendorgen."):
            raise ImportError(f"vendored code imported {name}")
        return None


PACKAGE = "vendored_example"


def load(stem: str) -> Any:
    """A module of generated_example/tools/, imported as a package's (it imports the run-time files beside it: `._vendored_gradio`...)."""
    if PACKAGE not in sys.modules:
        spec = importlib.machinery.ModuleSpec(PACKAGE, None, is_package=True)
        spec.submodule_search_locations = [str(TOOLS)]
        sys.modules[PACKAGE] = importlib.util.module_from_spec(spec)
    sys.modules.pop(f"{PACKAGE}.{stem}", None)  # a fresh module each time: cases change SERVER
    return importlib.import_module(f"{PACKAGE}.{stem}")


def text_tools(config: dict[str, Any], transport: str) -> Any:
    module = load("text_tools")
    if transport == "stdio":  # the same server, started by the vendored code over stdio
        module.SERVER.update(transport="stdio", command=config["server_python"], env=[],
                             args=[str(REPO / "examples" / "mcp_server.py"), "stdio"])  # fmt: skip
    else:
        module.SERVER["url"] = config["mcp_url"]  # the committed file names the fixed demo port
    return module


def space_tool(config: dict[str, Any]) -> Any:
    module = load("convert")
    module.ConvertTool.src = config["gradio_url"]
    return module.ConvertTool()


def call(case: str, config: dict[str, Any]) -> Any:
    if case == "space":
        return space_tool(config)(value=2, from_unit="km", to_unit="m")
    if case == "space.audio":  # no row has smolagents[audio]: the file path instead of AgentAudio
        module = load("tone")
        module.ToneTool.src = config["gradio_url"]
        result = module.ToneTool()(frequency=440, seconds=0.1)
        return {"type": type(result).__name__, "suffix": Path(str(result)).suffix}
    if case == "space.file":
        from PIL import Image

        module = load("thumbnail")
        module.ThumbnailTool.src = config["gradio_url"]
        return list(module.ThumbnailTool()(image=Image.new("RGB", (64, 32)), size=32).to_raw().size)
    if case == "space.not_given":
        module = load("optional")
        module.OptionalTool.src = config["gradio_url"]
        return module.OptionalTool()(name="Ada")
    if case == "space.to_langchain":
        return space_tool(config).to_langchain().invoke({"value": 3, "from_unit": "m", "to_unit": "cm"})
    if case == "space.input_schema":  # LangChain's input model names the arguments, on every langchain-core
        return sorted(space_tool(config).to_langchain().get_input_schema().model_json_schema()["properties"])
    if case in ("mcp.streamable-http", "mcp.stdio"):
        module = text_tools(config, case.partition(".")[2])
        with module.ConvertTemperatureTool() as tool:
            return tool(value=100, unit="C", to="F")
    if case in ("mcp.headers", "mcp.oauth"):  # tests/servers/mcp_auth_server.py: how its tool was called
        module = text_tools(config, "streamable-http")
        module.SERVER["url"] = config[f"{case.partition('.')[2]}_url"]
        module.SERVER.update({"headers": {"Authorization": "Bearer ${MATRIX_TOKEN}", "X-Team": "${MATRIX_TEAM}"}}
                             if case == "mcp.headers" else {"oauth": {"module": "matrix"}})  # fmt: skip

        class WhoamiTool(module._ServerTool):
            name, description, inputs, output_type = "whoami", "Which credentials arrived.", {}, "string"
            mcp_name, output_schema = "whoami", None

            def forward(self) -> Any:
                return self._call({})

        with WhoamiTool() as tool:
            return tool()
    if case == "mcp.to_langchain":
        module = text_tools(config, "streamable-http")
        with module.SlugifyTitleTool() as tool:
            return tool.to_langchain().invoke({"title": "Vendor Your Tools!"})
    if case == "serve.stdio":
        return asyncio.run(served_calls(config))
    if case == "catalog":
        return catalog_run(config)
    if case == "langchain":
        return load("langchain_tools").CountWordsTool()(text="a b a", unique=True)
    if case == "langchain.union":  # an argument typed as a union of TypedDicts
        return load("langchain_tools").PaintNeededTool()(wall={"shape": "triangle", "base": 2, "height": 3})
    if case == "langchain.to_langchain":
        return load("langchain_tools").PaintNeededTool().to_langchain().invoke({"wall": {"width": 2, "height": 3}})
    raise SystemExit(f"unknown case {case}")


async def served_calls(config: dict[str, Any]) -> list[str]:
    """An MCP tool (its upstream over stdio) and a LangChain tool, called through the vendored server over stdio."""
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    command = StdioServerParameters(command=sys.executable, args=[__file__, SERVE, json.dumps(config)])
    async with stdio_client(command) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        texts = []
        for name, arguments in (("slugify_title", {"title": "Served Tools!"}), ("count_words", {"text": "a b a"})):
            result = await session.call_tool(name, arguments)
            texts.append(" ".join(item.text for item in result.content))
        return texts


def serve(config: dict[str, Any]) -> None:
    """The server of `served_calls`: the vendored _vendored_server.py (and its transport) as vendorgen ships it, in this row."""
    for name in ("_vendored_pins.py", "_vendored_transport.py", "_vendored_handlers.py", "_vendored_content.py",
                 "_vendored_server_offers.py"):
        shipped(SHIPPED / name)
    server = shipped(SHIPPED / "_vendored_server.py")
    tools = [text_tools(config, "stdio").SlugifyTitleTool, load("langchain_tools").CountWordsTool]
    server.main(tools, {}, ["--allow-drift"])  # drift is tested with vendorgen; here, that the calls work


def catalog_run(config: dict[str, Any]) -> list[Any]:
    """A CodeAgent of the row's smolagents given `catalog_tools()` of three source kinds, driven by a scripted model:
    whether the prompt leaves out every argument description, what its code's calls of find_tools and of two tools under their own names return."""
    from smolagents import CodeAgent, Model
    from smolagents.models import ChatMessage, MessageRole

    catalog = shipped(CATALOG_FILE)
    classes = [load("langchain_tools").CountWordsTool, text_tools(config, "stdio").ConvertTemperatureTool]
    index = {cls.name: catalog.index_entry(cls.name, cls.description, cls.inputs) for cls in classes}
    code = "final_answer([find_tools('temperature').splitlines()[0], count_words(text='a b a'), convert_temperature(value=100)])"

    class Scripted(Model):
        def generate(self, messages: Any, *args: Any, **kwargs: Any) -> Any:
            return ChatMessage(role=MessageRole.ASSISTANT, content=f"Thought: go.\n<code>\n{code}\n</code>")

    agent = CodeAgent(tools=catalog.build(classes, index, False, 5, None), model=Scripted(model_id="scripted"))
    documented = [spec["description"] for cls in classes for spec in cls.inputs.values()]
    return [not any(text in agent.system_prompt for text in documented), *agent.run("go")]


def shipped(path: Path) -> Any:
    """A package file's logic as vendorgen ships it, imported as the package's (a project's copy has its tail too)."""
    load("langchain_tools")  # creates the package
    spec = importlib.util.spec_from_file_location(f"{PACKAGE}.{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


# The package files' logic as vendorgen copies it into a project (the tails of the catalog and the server
# module, their tools and index, are written there).
SHIPPED = REPO / "vendorgen" / "shipped"
CATALOG_FILE = SHIPPED / "_vendored_catalog.py"
SERVE = "--serve"

if __name__ == "__main__":
    sys.meta_path.insert(0, NoVendorgen())
    sys.path.insert(0, str(REPO))  # `examples.langchain_tools`, the user's code the LangChain tools import
    if sys.argv[1] == SERVE:
        serve(json.loads(sys.argv[2]))
        sys.exit()
    config = json.loads(sys.argv[1])
    results: dict[str, dict[str, Any]] = {}
    for case in sys.argv[2:]:
        try:
            results[case] = {"value": call(case, config)}
        except Exception as exc:  # the measured error, one line, for the test's message
            results[case] = {"error": f"{type(exc).__name__}: {' '.join(str(exc).split())}"}
    print(json.dumps(results))
