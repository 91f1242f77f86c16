/** The shapes of geo doctor's checks, and the folder check every folder of geo shares. */
import { statSync } from 'node:fs';
import { userInfo } from 'node:os';
import type { Ctx } from '../../context.js';

export type Status = 'ok' | 'warn' | 'fail';

export interface CheckResult {
  name: string;
  status: Status;
  detail: string;
  /** What to do about a warn or fail: one copyable line. */
  hint?: string;
}

/** What a check may look at: the Ctx, and whether it may go out (--online) and send the key (--auth). */
export type DoctorCtx = Ctx & { online: boolean; auth: boolean };

export type Check = (ctx: DoctorCtx) => Promise<CheckResult | CheckResult[]>;

/**
 * A folder geo owns: missing is fine (geo creates it 0700 when first needed); another owner, or
 * access by group or others, is `bad` (DESIGN.md: geo never chmods a folder it did not create, so
 * this says how instead).
 */
export function folderCheck(name: string, dir: string, holds: string, bad: Status): CheckResult {
  let st;
  try {
    st = statSync(dir);
  } catch {
    return { name, status: 'ok', detail: `${dir}: not created yet (geo makes it 0700 when it first needs it)` };
  }
  if (!st.isDirectory()) return { name, status: 'fail', detail: `${dir} is not a folder`, hint: `move it aside: mv ${dir} ${dir}.bak` };
  const mode = st.mode & 0o777;
  let uid: number | undefined;
  try {
    uid = userInfo().uid;
  } catch {
    uid = undefined;
  }
  if (uid !== undefined && st.uid !== uid) return { name, status: 'fail', detail: `${dir} belongs to another user (uid ${st.uid}); it holds ${holds}`, hint: `use a folder of your own (see geo --help, "folders")` };
  if (mode & 0o077) return { name, status: bad, detail: `${dir}: mode ${mode.toString(8)}, others can ${mode & 0o022 ? 'change' : 'read'} the ${holds} in it`, hint: `chmod 700 ${dir}` };
  return { name, status: 'ok', detail: `${dir} (0${mode.toString(8)})` };
}
