/** Reads the credit snapshot; the body is kept as received for --json. */
import type { ApiResponse } from '../../api/client.js';
import type { Credits } from '../../api/schemas.js';
import type { Ctx } from '../../context.js';

export async function runCredits(ctx: Pick<Ctx, 'client'>): Promise<ApiResponse<Credits>> {
  return ctx.client().credits();
}
