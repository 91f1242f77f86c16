/** Glue for `geo doctor`: the checks' results as lines (or JSON), exit 1 when one failed. */
import type { Handler } from '../types.js';
import { render } from '../../output/render.js';
import { runDoctor } from './checks.js';

export const doctor: Handler = async (ctx, _args, opts) => {
  const results = await runDoctor(ctx, { online: Boolean(opts.online), auth: Boolean(opts.auth) });
  await render(ctx, { data: results, records: () => results, human: async (view) => (await import('../../output/views/doctor.js')).doctorView(results, view) });
  return results.some((r) => r.status === 'fail') ? 1 : 0;
};
