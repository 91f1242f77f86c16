/**
 * A --dry-run needs no key (locate's and eval's): without one, the plan is built and printed with
 * no balance, and any request it would make fails with the missing-key error it would have had.
 */
import { normalizeBaseUrl } from '../api/client.js';
import { MissingKeyError } from '../errors.js';
import type { BatchClient } from './worker.js';

export function clientForPlan(make: () => BatchClient, baseUrl: () => string, dryRun: boolean): BatchClient {
  try {
    return make();
  } catch (err) {
    if (!(dryRun && err instanceof MissingKeyError)) throw err;
    const fail = () => Promise.reject(err);
    return { baseUrl: normalizeBaseUrl(baseUrl()), credits: fail, geolocate: fail };
  }
}
