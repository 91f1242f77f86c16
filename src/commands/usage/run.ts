/** Reads the usage snapshot; its data is an open object, passed on untouched. */
import type { ApiResponse } from '../../api/client.js';
import type { Usage } from '../../api/schemas.js';
import type { Ctx } from '../../context.js';

export async function runUsage(ctx: Pick<Ctx, 'client'>): Promise<ApiResponse<Usage>> {
  return ctx.client().usage();
}
