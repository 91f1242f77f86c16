/**
 * Who does something on a store: the OS user and host, as the team store records them
 * beside each paid answer and each budget reservation. Never a key, never a password.
 */
import { hostname, userInfo } from 'node:os';
import type { Analyst } from './api.js';

export function analyst(): Analyst {
  let user: string;
  try {
    user = userInfo().username || 'unknown';
  } catch {
    user = 'unknown';
  }
  return { user, host: hostname() };
}
