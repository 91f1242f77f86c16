/** `geo mcp`: a Model Context Protocol server on stdio, for agents. */
import type { Register } from '../commands/types.js';

const collect = (v: string, prev: string[] | undefined) => [...(prev ?? []), v];

export const register: Register = (program, act) => {
  program
    .command('mcp')
    .description('serve geo to an AI agent (MCP, stdio), with credit guards')
    .option('--max-credits-per-call <n>', 'refuse a locate whose plan could cost more than N credits (default 10; answers reused from earlier runs cost 0)')
    .option('--max-credits <n>', 'the most the whole server run may spend; a plan above what is left is refused')
    .option('--read-only', 'only the tools that spend nothing and change nothing: no locate, check_claim, cases_create or case_note; export writes no files')
    .option('--allow-dir <dir>', 'a folder the agent may read images and results from and write exports to, symlinks resolved (repeatable; default: the folder geo mcp starts in)', collect)
    .addHelpText(
      'after',
      `
An MCP client starts geo mcp and talks JSON-RPC to it over stdin/stdout; stdout carries only the
protocol, logs go to stderr. The server ends when the client closes its stdin.

Tools: locate, check_claim, inspect, credits, usage, analyses, cases_list, cases_create,
case_summary, case_note, history, export (--read-only: those that spend and change nothing).
An agent notes in a case (case_note), never concludes, rules out, judges clues or reviews.

Guards (an agent spends your credits and reads your disk): a locate plan above
--max-credits-per-call or what is left of --max-credits is refused before anything is sent;
files outside --allow-dir are refused (symlinks resolved); the key never comes from a tool
argument and is masked in every result. More: docs/agents.md.

Configure a client (Claude Desktop's claude_desktop_config.json, Cursor's mcp.json):
  {"mcpServers": {"geo": {"command": "geo", "args": ["mcp", "--max-credits", "50"]}}}

Examples (each pipes one JSON-RPC request in and ends with its input; a client does this for you):
  $ echo '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' | geo mcp --read-only    # the 8 free tools
  $ echo '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"locate","arguments":{"inputs":["sample:paris"]}}}' | geo --sandbox mcp    # 1 sandbox credit
  $ echo '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"locate","arguments":{"inputs":["sample:paris"],"depth":3}}}' | geo --sandbox mcp --max-credits-per-call 5    # a tool error: costs 10, nothing sent

With your own key, as a client runs it:
  geo mcp --max-credits 50 --allow-dir ~/cases/harbour`,
    )
    .action(act(async () => (await import('./handler.js')).mcp));
};
