/**
 * Which time-stamp authorities geo may contact: `geo config set tsa URL[,URL…]` and `--tsa URL`
 * (none is contacted unless configured or named). Each is https, or plain http
 * only to a loopback host, the rule keys follow too (api/client-util.ts): a request to a TSA
 * carries no secret, but a reply fetched in clear could be swapped on the way, and a TSA reached
 * over plain http from afar says something about the analyst's work to whoever listens.
 */
import { isLoopbackHost } from '../api/validators.js';
import { UsageError } from '../errors.js';

const HINT = 'geo config set tsa https://freetsa.org/tsr (several: separate them with commas)';

/** One TSA URL, normalised (new URL().href), or a UsageError saying what is wrong with it. */
export function checkTsaUrl(text: string): string {
  const given = text.trim();
  let u: URL;
  try {
    u = new URL(given);
  } catch {
    throw new UsageError(`"${given}" is not a URL of a time-stamp authority`, HINT);
  }
  if (u.username || u.password) throw new UsageError(`the TSA URL ${u.host} carries a user name or password; geo keeps URLs in plain config and prints them`, 'use a TSA that needs no credentials in its URL');
  if (u.protocol === 'http:' && !isLoopbackHost(u.hostname)) throw new UsageError(`plain http is allowed only for loopback hosts, not ${u.hostname}`, `use https://${u.host}${u.pathname}`);
  if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new UsageError(`a TSA is reached over https, not ${u.protocol}`, HINT);
  if (u.hash) throw new UsageError(`the TSA URL ${given} has a #fragment, which is never sent`, HINT);
  return u.href;
}

/** A comma-separated list (the config value, or repeated --tsa flags joined), checked, without repeats. */
export function parseTsaList(text: string): string[] {
  const parts = text.split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (parts.length === 0) throw new UsageError('no TSA URL given', `${HINT}; \`geo config unset tsa\` contacts none`);
  return [...new Set(parts.map(checkTsaUrl))];
}

/** The configured TSAs (`geo config get tsa`); [] when none is configured. */
export function configuredTsas(value: string | undefined): string[] {
  return value === undefined || value.trim() === '' ? [] : parseTsaList(value);
}
