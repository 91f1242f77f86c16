/**
 * Every noun's register function, for src/cli.ts. The register modules hold flags only (their
 * handlers are imported when a command runs), so they are bundled with the CLI: loading twenty
 * tiny files cost more start-up than their code. The nouns and their order are bin/nouns.json's,
 * the one list the code-cache loader (bin/load-cli.js) reads too (test/cli/root-help.test.ts
 * checks this table names each once). registry-history.ts is this file for the look-up bundle.
 */
import type { NounLine, Register } from './types.js';
import { register as locateRegister } from './locate/register.js';
import { register as inspectRegister } from './inspect/register.js';
import { register as creditsRegister } from './credits/register.js';
import { register as usageRegister } from './usage/register.js';
import { register as analysesRegister } from './analyses/register.js';
import { register as casesRegister } from './cases/register.js';
import { register as keysRegister } from './keys/register.js';
import { register as configRegister } from './config/register.js';
import { register as docsRegister } from './docs/register.js';
import { register as sandboxRegister } from './sandbox/register.js';
import { register as storeRegister } from './store/register.js';
import { register as exportRegister } from './export/register.js';
import { register as evalRegister } from './eval/register.js';
import { register as claimsRegister } from './claims/register.js';
import { register as completionRegister } from './completion/register.js';
import { register as historyRegister } from './history/register.js';
import { register as mcpRegister } from './mcp/register.js';
import { register as versionRegister } from './version/register.js';
import { register as apiRegister } from './api/register.js';
import { register as doctorRegister } from './doctor/register.js';

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
