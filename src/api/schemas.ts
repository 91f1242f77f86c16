/**
 * The wire contract of ../shared/api-spec.md as zod schemas, shared by the client (checks before
 * sending, parses what comes back) and the sandbox (validates requests, builds responses).
 *
 * Response objects are `looseObject`: fields the spec does not list pass through untouched
 * (DESIGN.md: "where it says 'not shown', the CLI assumes nothing").
 *
 * Written with zod/mini (checks and wrappers are functions: z.optional(x), x.check(z.gte(0))).
 * Every schema is wrapped in z.lazy and built on its first parse: zod's constructors cost about
 * 25 ms for the whole contract on Node 20, and `geo credits` needs two of these schemas, not forty
 * (start-up budget; bench/startup.mjs).
 */
import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';

// zod/mini: the same parser core as zod's classic API without a method table on every schema,
// so it loads in about half the time (start-up budgets; bench/startup.mjs). Its English
// messages are opt-in. zod's JIT (object parsers compiled with new Function on first use) costs
// more than it saves for the handful of bodies a CLI run parses, and it is one eval fewer.
z.config({ ...en(), jitless: true });

// The constants (schemas-limits.ts), small validators (validators.ts), and the contract by part:
// errors and headers, the geolocation request and response, the account, history and cases.
export * from './schemas-limits.js';
export { beginsWithCalendarDate, isAcceptableImageUrl, isLoopbackHost, isStrictBase64 } from './validators.js';
export * from './schemas-errors.js';
export * from './schemas-request.js';
export * from './schemas-response.js';
export * from './schemas-account.js';
