/**
 * What geo mcp takes from the MCP SDK, in one place. The build bundles it apart, as dist/sdk.cjs,
 * which dist/cli.js requires only when `geo mcp` runs: the SDK (about 400 KB) stays out of the
 * bundle every other command loads, parses and keeps in memory (bench/image.mjs's peak RSS).
 */
export { Server } from '@modelcontextprotocol/sdk/server/index.js';
export { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
export { CallToolRequestSchema, type CallToolResult, type JSONRPCMessage, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
