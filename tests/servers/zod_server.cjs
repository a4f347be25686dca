// An MCP server written as TypeScript servers are: the real @modelcontextprotocol/sdk and zod
// (from the npm packages `make test` installs under .cache/npm), with zod's `.default()` and unions.
// Run with `node tests/servers/zod_server.cjs <node_modules dir>`; stdio only.
const modules = process.argv[2];
const load = (name) => require(require.resolve(name, { paths: [modules] }));
const { McpServer } = load("@modelcontextprotocol/sdk/server/mcp.js");
const { StdioServerTransport } = load("@modelcontextprotocol/sdk/server/stdio.js");
const { z } = load("zod");

const server = new McpServer({ name: "zod-shapes", version: "3.1.4" });
server.registerTool(
  "find-user",
  {
    description: "Find a user, by name or by id.",
    inputSchema: {
      who: z.union([
        z.string().describe("A user name"),
        z.object({ id: z.number().int().describe("The numeric id") }).describe("A user by id"),
      ]),
      limit: z.number().int().default(10).describe("How many hits"),
      since: z.union([z.string(), z.number()]).optional().describe("A date or a timestamp"),
    },
  },
  async (args) => ({ content: [{ type: "text", text: JSON.stringify(args) }] }),
);

server.connect(new StdioServerTransport());
