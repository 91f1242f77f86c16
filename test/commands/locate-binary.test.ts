/** The built binary (bin/geo.js -> dist/), spawned as a user would, piped. Needs `npm run build`. */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GeolocateResponseSchema } from '../../src/api/schemas.js';
import { spawnGeo } from '../helpers/run-cli.js';
import { KEYS, withSandbox } from '../helpers/sandbox.js';
import { ANSI, IMG } from './locate-helpers.js';

const sb = withSandbox();
const built = existsSync(new URL('../../dist/cli.js', import.meta.url));

describe.skipIf(!built)('geo (built binary)', () => {
  it('geo locate fixtures/images/paris.jpg --json, piped: the body as received, banner on stderr', async () => {
    const r = await spawnGeo(['locate', `${IMG}paris.jpg`, '--keep-metadata', '--json'], { env: { GEO_API_KEY: KEYS.pro, GEO_BASE_URL: sb.url } });
    expect(r.code).toBe(0);
    const body = GeolocateResponseSchema.parse(JSON.parse(r.stdout));
    expect(body.location.latitude).toBeCloseTo(48.858, 2);
    expect(r.stdout).not.toMatch(ANSI);
    // The plan before spending (issue 11), what --keep-metadata sends (issue 22), then the banner;
    // the balance is not read for one image.
    const [plan, kept, ...rest] = r.stderr.split('\n');
    expect(plan).toBe('plan: 1 input · 1 to send × depth 1 (1 credit) = up to 1 credit');
    expect(kept).toMatch(/^--keep-metadata: paris\.jpg is sent as it is, with its GPS position/);
    expect(rest).toEqual(['sandbox: simulated results, sandbox credits, no real money', '']);
  });

  it('exit codes survive the process boundary: 8 below --min-confidence, 2 for a bad depth', async () => {
    const env = { GEO_API_KEY: KEYS.pro, GEO_BASE_URL: sb.url };
    expect((await spawnGeo(['locate', `${IMG}nogps.jpg`, '--min-confidence', '0.99'], { env })).code).toBe(8);
    expect((await spawnGeo(['locate', `${IMG}paris.jpg`, '--depth', '2.5'], { env })).code).toBe(2);
  });

  it('geo credits piped', async () => {
    const r = await spawnGeo(['credits'], { env: { GEO_API_KEY: KEYS.pro, GEO_BASE_URL: sb.url } });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^balance +\d+\n/);
  });
});
