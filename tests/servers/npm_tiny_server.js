#!/usr/bin/env node
// A stdio MCP server with no dependencies, packed by tests/test_pins.py into the tarball a loopback npm
// registry serves: `npx -y @scope/server@VERSION` installs and runs it with no network. VERSION is set there.
const VERSION = "0";
const readline = require("readline");
const send = (message) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...message }) + "\n");
readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const message = JSON.parse(line);
  if (message.method === "initialize") {
    send({ id: message.id, result: { protocolVersion: message.params.protocolVersion, capabilities: { tools: {} },
                                     serverInfo: { name: "tiny-npm", version: VERSION } } });
  } else if (message.method === "tools/list") {
    send({ id: message.id, result: { tools: [{ name: "version", description: "The package's version.",
                                               inputSchema: { type: "object", properties: {} } }] } });
  } else if (message.method === "tools/call") {
    send({ id: message.id, result: { content: [{ type: "text", text: VERSION }] } });
  } else if (message.id !== undefined) {
    send({ id: message.id, result: {} });
  }
});
