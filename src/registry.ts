/**
 * Every noun's register function, for src/cli.ts. The register modules hold flags only (their
 * handlers are imported when a command runs), so they are bundled with the CLI: loading twenty
 * tiny files cost more start-up than their code. The nouns and their order are bin/nouns.json's,
 * the one list the code-cache loader (bin/load-cli.js) reads too (test/cli/root-help.test.ts
 * checks this table names each once). registry-history.ts is this file for the look-up bundle.
 *
 * It sits beside cli.ts, above commands/ and mcp/: `geo mcp` is the second front door's own
 * (mcp/register.ts), and mcp/ calls the commands' run functions, so no command may reach it.
 */
import type { NounLine, Register } from './commands/types.js';
import { register as locateRegister } from './commands/locate/register.js';
import { register as inspectRegister } from './commands/inspect/register.js';
import { register as creditsRegister } from './commands/credits/register.js';
import { register as usageRegister } from './commands/usage/register.js';
import { register as analysesRegister } from './commands/analyses/register.js';
import { register as casesRegister } from './commands/cases/register.js';
import { register as keysRegister } from './commands/keys/register.js';
import { register as configRegister } from './commands/config/register.js';
import { register as docsRegister } from './commands/docs/register.js';
import { register as sandboxRegister } from './commands/sandbox/register.js';
import { register as storeRegister } from './commands/store/register.js';
import { register as exportRegister } from './commands/export/register.js';
import { register as evalRegister } from './commands/eval/register.js';
import { register as claimsRegister } from './commands/claims/register.js';
import { register as completionRegister } from './commands/completion/register.js';
import { register as historyRegister } from './commands/history/register.js';
import { register as mcpRegister } from './mcp/register.js';
import { register as versionRegister } from './commands/version/register.js';
import { register as apiRegister } from './commands/api/register.js';
import { register as doctorRegister } from './commands/doctor/register.js';

export const REGISTERS: Record<string, Register> = {
  locate: locateRegister,
  inspect: inspectRegister,
  credits: creditsRegister,
  usage: usageRegister,
  analyses: analysesRegister,
  cases: casesRegister,
  keys: keysRegister,
  config: configRegister,
  docs: docsRegister,
  sandbox: sandboxRegister,
  export: exportRegister,
  eval: evalRegister,
  claims: claimsRegister,
  history: historyRegister,
  api: apiRegister,
  mcp: mcpRegister,
  store: storeRegister,
  doctor: doctorRegister,
  completion: completionRegister,
  version: versionRegister,
};

/**
 * The one noun a bundle runs, when it was built for one (cli.ts handles()); '' for the root help's
 * bundle (registry-root.ts), which runs no noun. This one runs all.
 */
export const ONLY_NOUN: string | undefined = undefined;
/** The root help's lines, where the build recorded them (registry-root.ts); here cli.ts records them from REGISTERS. */
export const NOUN_LINES: readonly NounLine[] | undefined = undefined;
