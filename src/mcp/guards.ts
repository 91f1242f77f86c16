/**
 * The guards of `geo mcp`: an agent spends the analyst's money and reads their disk, so
 * what it may read or write is bounded by --allow-dir (after resolving symlinks: a link inside an
 * allowed folder that leads out of it is refused), and what it may spend by
 * --max-credits-per-call and --max-credits (the whole server run). Refusals happen before anything
 * is read or sent.
 */
import { lstat, realpath, stat } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import type { BudgetName } from '../batch/plan.js';
import { UsageError } from '../errors.js';
import { writeOwnFile } from '../files/own-file.js';
import { expandSamples } from '../files/samples.js';

/** A refusal by a guard: a usage error (nothing read, nothing sent) with a code an agent can act on. */
export class RefusedError extends UsageError {
  constructor(readonly code: 'outside_allowed_dirs' | 'over_budget' | 'stdin_is_the_protocol' | 'not_for_agents' | 'url_not_https', message: string, hint?: string) {
    super(message, hint);
  }
}

const isUrl = (s: string) => /^[a-z][a-z0-9+.-]*:\/\//i.test(s);

/**
 * An agent's URL must be https: geo fetches it from this machine, so a plain-http one (which geo
 * takes only on loopback) would let an agent read this machine's own local services, as the
 * allowed folders keep it from reading its files.
 */
function agentUrl(name: string): string {
  if (!/^https:\/\//i.test(name)) throw new RefusedError('url_not_https', `${name.slice(0, 200)}: an agent may name https URLs only; nothing was fetched or sent`, 'a plain-http or loopback URL would be fetched from this machine: download it into an allowed folder and name the file');
  return name;
}

export class AllowedDirs {
  private constructor(
    /** Real paths (symlinks resolved) of the allowed folders. */
    readonly dirs: readonly string[],
    /** Where relative names start: the folder geo was started in. */
    private readonly cwd: string,
    /** Real paths of the photos shipped with geo (sample:NAME): always readable, they are not the analyst's. */
    private readonly samples: ReadonlySet<string>,
  ) {}

  /** Each folder must exist; an unusable one is a usage error when the server starts. */
  static async open(dirs: readonly string[], cwd: string): Promise<AllowedDirs> {
    const real: string[] = [];
    for (const d of dirs) {
      try {
        const r = await realpath(resolve(cwd, d));
        if (!(await stat(r)).isDirectory()) throw new UsageError(`--allow-dir ${d} is not a folder`);
        real.push(r);
      } catch (err) {
        if (err instanceof UsageError) throw err;
        throw new UsageError(`--allow-dir ${d}: cannot read it (${(err as NodeJS.ErrnoException).code ?? 'error'})`, 'name an existing folder');
      }
    }
    const samples = await Promise.all(expandSamples(['sample:all']).map((p) => realpath(p).catch(() => p)));
    return new AllowedDirs(real, cwd, new Set(samples));
  }

  private contains(real: string): boolean {
    return this.dirs.some((d) => {
      const rel = relative(d, real);
      return rel === '' || (!rel.startsWith('..' + sep) && rel !== '..' && !rel.startsWith(sep));
    });
  }

  private outside(name: string, real: string | undefined): RefusedError {
    const where = real !== undefined && real !== resolve(this.cwd, name) ? ` (it resolves to ${real})` : '';
    return new RefusedError('outside_allowed_dirs', `${name} is outside the folders this server may read${where}; nothing was read or sent`, `allowed: ${this.dirs.join(', ')}; start geo mcp with --allow-dir to allow another folder`);
  }

  /**
   * The real path of an existing file or folder the agent names, refused outside the allowed
   * folders. A missing one is refused the same way, so that nothing tells the agent what exists
   * outside them.
   */
  async readable(name: string): Promise<string> {
    if (name === '-') throw new RefusedError('stdin_is_the_protocol', 'geo mcp cannot read `-`: its standard input carries the protocol', 'name a file');
    let real: string;
    try {
      real = await realpath(resolve(this.cwd, name));
    } catch (err) {
      if (this.contains(resolve(this.cwd, name))) throw new UsageError(`${name}: no such file or folder (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
      throw this.outside(name, undefined);
    }
    if (!this.contains(real) && !this.samples.has(real)) throw this.outside(name, real);
    return real;
  }

  /**
   * A file to write: its real folder must be allowed, and the name itself must not be a symbolic
   * link, dangling or not (a dangling `allowed/x.csv -> /outside/victim.csv` once made geo create
   * the victim), nor anything but a plain file with one name (a hard link writes through to its
   * twin, wherever that is). write() checks again on the descriptor it writes through.
   */
  async writable(name: string): Promise<string> {
    const full = resolve(this.cwd, name);
    let folder: string;
    try {
      folder = await realpath(dirname(full));
    } catch {
      throw this.contains(dirname(full)) ? new UsageError(`${name}: its folder does not exist`) : this.outside(name, undefined);
    }
    const target = join(folder, basename(full));
    if (!this.contains(folder)) throw this.outside(name, target);
    const st = await lstat(target).catch(() => undefined);
    if (st?.isSymbolicLink()) throw this.notPlain(name, 'is a symbolic link');
    if (st && !st.isFile()) throw this.notPlain(name, 'is not a plain file');
    if (st && st.nlink > 1) throw this.notPlain(name, 'is a hard link to another file');
    return target;
  }

  private notPlain(name: string, what: string): RefusedError {
    return new RefusedError('outside_allowed_dirs', `${name} ${what}: geo mcp writes only plain files inside the allowed folders, never through links; nothing was written`, 'choose another name for `out`');
  }

  /**
   * Writes `data` to a name writable() returned, through geo's one writer (files/own-file.ts): a
   * new 0600 file renamed onto the name, so a link or a second name planted since the check is
   * replaced, never written through; `reads` (the results files the export read) are refused as
   * targets.
   */
  async write(path: string, data: string | Uint8Array, reads: readonly string[] = []): Promise<void> {
    try {
      await writeOwnFile(path, 'the export', data, { inputs: () => reads });
    } catch (err) {
      // "refusing to use P as the export: it is a symbolic link" -> "P is a symbolic link: geo mcp writes only …"
      const why = err instanceof UsageError ? /^refusing to use .* as the export: it (.*)$/.exec(err.message)?.[1] : undefined;
      if (why !== undefined) throw this.notPlain(path, why);
      throw err;
    }
  }

  /**
   * Inputs for locate and inspect: `sample:NAME` (geo's own photos) as they are, https URLs as they
   * are (the service fetches them), every other name by its real path once allowed.
   */
  async inputs(names: readonly string[]): Promise<string[]> {
    const out: string[] = [];
    for (const name of names) {
      if (name.startsWith('sample:')) out.push(...expandSamples([name]));
      else if (isUrl(name)) out.push(agentUrl(name));
      else out.push(await this.readable(name));
    }
    return out;
  }
}

export interface BudgetOptions {
  perCall: number;
  /** The whole server run; undefined for no limit beyond each call's. */
  total?: number;
}

/**
 * The credit guards. Calls that may spend run one at a time, so the run budget is never
 * promised twice; reused and replayed answers cost 0 and are not counted.
 */
export class Budget {
  spent = 0;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(readonly o: BudgetOptions) {}

  get left(): number | undefined {
    return this.o.total === undefined ? undefined : Math.max(0, this.o.total - this.spent);
  }

  /** The most the next call may plan, and how the refusal names it. */
  limit(): { maxCredits: number; name: BudgetName } {
    const left = this.left;
    if (left !== undefined && left < this.o.perCall) {
      return { maxCredits: left, name: { what: `what this server run may still spend (${left} of geo mcp --max-credits ${this.o.total})`, raise: 'restart geo mcp with a higher --max-credits' } };
    }
    return { maxCredits: this.o.perCall, name: { what: `geo mcp --max-credits-per-call ${this.o.perCall}`, raise: 'restart geo mcp with a higher --max-credits-per-call' } };
  }

  /** Runs `spend` after the calls before it; it reports what it spent through `charge`. */
  run<T>(spend: (limit: ReturnType<Budget['limit']>, charge: (credits: number) => void) => Promise<T>): Promise<T> {
    const next = this.queue.then(() => spend(this.limit(), (credits) => (this.spent += credits)));
    this.queue = next.catch(() => undefined);
    return next;
  }
}
