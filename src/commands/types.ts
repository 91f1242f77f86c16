/**
 * The types every command and the entry file share (DESIGN.md "Layers": no command imports the
 * entry file). A command is `register(program, act)` (flags only) plus a Handler that act() loads
 * lazily when the command runs.
 */
import type { Command } from 'commander';
import type { Ctx } from '../context.js';

/** A command's work: gets the Ctx, its positional arguments and options (globals included). */
export type Handler = (ctx: Ctx, args: unknown[], opts: Record<string, unknown>) => Promise<number | void>;
/** What a command declares beside its flags. */
export interface ActOptions {
  /** It sends nothing to the service (history, inspect, a case's own files): --sandbox starts no sandbox for it and says nothing. */
  offline?: boolean;
}
export const OFFLINE: ActOptions = { offline: true };
/** Wraps a lazily imported handler into a commander action. */
export type Act = (load: () => Promise<Handler>, opts?: ActOptions) => (...args: unknown[]) => Promise<void>;
export type Register = (program: Command, act: Act) => void;

/** A noun as the root help lists it: its name, the usage term its registration gives, its description. */
export interface NounLine {
  name: string;
  term: string;
  description: string;
}
