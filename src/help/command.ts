/**
 * Help that fits the screen, for every command at once, including commands added later:
 * the program is a GeoCommand, and commander makes every subcommand with createCommand, so each is
 * one too. Its addHelpText keeps the text as written (the reference and the man pages read it from
 * `helpTexts`) and fits it to the terminal when shown; the Help configuration below lays out the
 * usage, flags and commands commander draws with the same wrap (output/fit.ts): nothing is split
 * inside a word or a flag, at any width. The width is the stream's (80 when it is not a terminal).
 */
import { Command, Help, type Option } from 'commander';
import { wrap } from '../output/fit.js';
import { renderItem, fitHelpText } from '../output/help/render.js';

type Position = 'before' | 'after' | 'beforeAll' | 'afterAll';
type HelpText = string | ((context: { error: boolean; command: Command }) => string);

/** Piped help is fitted to 80 columns (gh and clig.dev), never left as wide as the source. */
export const PIPED_HELP_WIDTH = 80;

export class GeoCommand extends Command {
  /** The help texts as written (not fitted), for the reference and the man pages. */
  readonly helpTexts: Array<{ position: Position; text: string }> = [];

  override createCommand(name?: string): GeoCommand {
    return new GeoCommand(name);
  }

  override addHelpText(position: Position, text: HelpText): this {
    if (typeof text === 'string') this.helpTexts.push({ position, text });
    return super.addHelpText(position, (context) => {
      const raw = typeof text === 'function' ? text(context) : text;
      return raw ? fitHelpText(raw, helpWidth(this, context.error)) : raw;
    });
  }
}

/** The width commander fits this command's help to (configureOutput's getOut/ErrHelpWidth). */
export function helpWidth(cmd: Command, error = false): number {
  const out = cmd.configureOutput();
  return (error ? out.getErrHelpWidth?.() : out.getOutHelpWidth?.()) ?? PIPED_HELP_WIDTH;
}

/** A flag's term wider than this share of the screen puts its text on the next line. */
const TERM_SHARE = 0.4;

export interface HelpExtras {
  /** Items listed after the commands in the root help (the help topics). */
  rootSections?: () => Array<{ heading: string; items: Array<[string, string]> }>;
}

/**
 * commander's Help, with: every text wrapped by output/fit.ts (a `quoted command` stays whole),
 * a definition's text under its term when the term is too wide, and the global flags listed by name
 * in one short block (gh's "INHERITED FLAGS"; `geo --help` says what each does).
 */
export function helpConfiguration(extras: HelpExtras = {}): Partial<Help> {
  return {
    showGlobalOptions: true,
    boxWrap(this: Help, str: string, width: number): string {
      return wrap(str, width).join('\n');
    },
    padWidth(this: Help, cmd: Command, helper: Help): number {
      const widest = Help.prototype.padWidth.call(this, cmd, helper);
      return Math.min(widest, Math.max(12, Math.floor((this.helpWidth ?? PIPED_HELP_WIDTH) * TERM_SHARE)));
    },
    formatItem(this: Help, term: string, termWidth: number, description: string): string {
      if (!description) return `  ${term}`;
      return renderItem('  ', term, 2 + termWidth + 2, description, this.helpWidth ?? PIPED_HELP_WIDTH).join('\n');
    },
    formatHelp(this: Help, cmd: Command, helper: Help): string {
      const globals = cmd.parent ? helper.visibleGlobalOptions(cmd) : [];
      this.showGlobalOptions = false;
      let text: string;
      try {
        text = Help.prototype.formatHelp.call(this, cmd, helper);
      } finally {
        this.showGlobalOptions = true;
      }
      const width = this.helpWidth ?? PIPED_HELP_WIDTH;
      let out = text;
      if (globals.length) {
        const block = ['Global Options: (geo --help says what each does)', ...packTerms(globals.map((o: Option) => helper.optionTerm(o)), width)].join('\n');
        // Before the subcommands, where commander puts them; else at the end (one blank line each side).
        const at = out.indexOf('\nCommands:\n');
        out = at < 0 ? `${out.replace(/\n*$/, '\n\n')}${block}\n` : `${out.slice(0, at + 1)}${block}\n\n${out.slice(at + 1)}`;
      }
      const sections = cmd.parent ? [] : (extras.rootSections?.() ?? []);
      if (!sections.length) return out;
      const termWidth = Math.min(Math.max(0, ...sections.flatMap((s) => s.items.map(([t]) => t.length))), Math.floor(width * TERM_SHARE));
      const lines = sections.flatMap((s) => [s.heading, ...s.items.map(([t, d]) => this.formatItem(t, termWidth, d, helper)), '']);
      return `${out.replace(/\n*$/, '\n\n')}${lines.join('\n')}`;
    },
  };
}

/** Flag terms ("-q, --quiet") packed on lines of at most `width`, two spaces apart, none split. */
function packTerms(terms: string[], width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const t of terms) {
    if (line && 2 + line.length + 2 + t.length > width) {
      lines.push(`  ${line}`);
      line = '';
    }
    line = line ? `${line}  ${t}` : t;
  }
  if (line) lines.push(`  ${line}`);
  return lines;
}
