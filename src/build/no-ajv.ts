/**
 * What the build gives for `ajv` and `ajv-formats` (package.json's build script aliases both here).
 * The MCP SDK's Server imports them for one thing: checking what a client answers to an
 * elicitation request, which geo mcp never sends (it passes its own validator instead,
 * src/commands/mcp/server.ts). Bundled, they would add ~250 KB to dist/cli.js, which every
 * command loads, against an installed-size budget of 40 MB (test/install/packed.test.ts).
 */
export default function unavailable(): never {
  throw new Error('ajv is not bundled with geo: geo mcp validates nothing with JSON Schema');
}
