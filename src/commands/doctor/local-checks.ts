/**
 * geo doctor's checks of the parts on this machine that later issues added: the store,
 * the OS keyring and ffmpeg. Each is offline and changes nothing it finds
 * missing: a store not created yet is not created by looking at it.
 */
import { existsSync, statSync } from 'node:fs';
import { StoreError, UsageError } from '../../errors.js';
import { dataDir } from '../../config/paths.js';
import { keyringAccount, keyringPolicy } from '../../config/key-storage.js';
import { KeyringUnavailable, keyringCall } from '../../config/keyring.js';
import { findTools } from '../../media/ffmpeg.js';
import { dbPath } from '../../store/index.js';
import type { Check } from './check-types.js';

/** The store opens, passes PRAGMA integrity_check, and how big it is and how many results it lists. */
export const storeCheck: Check = async (ctx) => {
  const path = dbPath(dataDir(ctx.env));
  if (!existsSync(path)) return { name: 'store', status: 'ok', detail: `${path}: not created yet (the first located photo creates it, 0600)` };
  const size = ['', '-wal'].reduce((n, ext) => n + (existsSync(path + ext) ? statSync(path + ext).size : 0), 0);
  try {
    const store = ctx.localStore();
    const integrity = store.integrity();
    if (integrity !== 'ok') {
      return { name: 'store', status: 'fail', detail: `${path}: damaged (${integrity})`, hint: `move it aside and rerun (paid answers replay free within 24 h): mv ${path} ${path}.damaged` };
    }
    const results = store.count();
    const sandbox = store.sandboxCount();
    return { name: 'store', status: 'ok', detail: `${path}: ${results} result${results === 1 ? '' : 's'}${sandbox ? ` (${sandbox} from the sandbox)` : ''}, ${(size / 1e6).toFixed(1)} MB, integrity ok` };
  } catch (err) {
    if (!(err instanceof StoreError)) throw err;
    return { name: 'store', status: 'fail', detail: `${path}: ${err.message}`, hint: err.hint ?? `move it aside: mv ${path} ${path}.damaged` };
  }
};

/**
 * Whether an OS keyring answers (one probe through the helper, about 40 ms). No keyring is a
 * warning (keys go to the 0600 file), unless GEO_KEYRING=required or a profile's key is in it.
 */
export const keyringCheck: Check = async (ctx) => {
  const policy = keyringPolicy(ctx.env);
  const inKeyring = ctx.config.profiles().filter((p) => p.storage === 'keyring').map((p) => p.name);
  const required = policy.use === 'required' || (policy.use === 'never' && policy.required);
  if (policy.use === 'never') {
    return required
      ? { name: 'keyring', status: 'fail', detail: 'GEO_KEYRING=required, but CI is set and geo never touches the OS keyring under CI', hint: 'unset GEO_KEYRING in CI (keys come from GEO_API_KEY there)' }
      : { name: 'keyring', status: 'ok', detail: 'not used: CI is set (keys come from GEO_API_KEY or the 0600 file)' };
  }
  let why: string | undefined;
  try {
    const [r] = await keyringCall(ctx.vault, [{ op: 'probe', account: keyringAccount('probe', ctx.vault.configDir) }]);
    if (r && !r.ok) why = r.error;
  } catch (err) {
    if (!(err instanceof KeyringUnavailable)) throw err;
    why = err.why;
  }
  if (why === undefined) return { name: 'keyring', status: 'ok', detail: `the OS keyring answers${inKeyring.length ? ` (holds the key of ${inKeyring.map((n) => `"${n}"`).join(', ')})` : ''}` };
  const hint = 'start or unlock the OS keyring (Linux: a Secret Service such as gnome-keyring, in a D-Bus session)';
  if (inKeyring.length) return { name: 'keyring', status: 'fail', detail: `no OS keyring answered (${why}), and the key of ${inKeyring.map((n) => `"${n}"`).join(', ')} is in it`, hint };
  if (required) return { name: 'keyring', status: 'fail', detail: `no OS keyring answered (${why}), and GEO_KEYRING=required refuses the file`, hint };
  return { name: 'keyring', status: 'warn', detail: `no OS keyring answered (${why}): geo keys add keeps keys in the 0600 config file`, hint };
};

/** ffmpeg and ffprobe, for videos (found the way geo locate clip.mp4 finds them; never downloaded). */
export const ffmpegCheck: Check = async (ctx) => {
  try {
    const t = await findTools(ctx.env, 'a video', ctx.children);
    return { name: 'ffmpeg', status: 'ok', detail: `ffmpeg ${t.version} (${t.ffmpeg}; ffprobe ${t.ffprobe})` };
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    return { name: 'ffmpeg', status: 'warn', detail: `${err.message.replace(/; nothing was sent$/, '')}: videos cannot be located (photos can)`, hint: err.hint ?? 'install ffmpeg' };
  }
};
