/**
 * The sandbox's location.city is the city (issue 13, part 6): the Eiffel Tower photo is in Paris,
 * not "Île-de-France", so the README's `geo analyses --city paris` finds it after locating it.
 */
import { describe, expect, it } from 'vitest';
import { IMG, runner } from '../commands/locate-helpers.js';
import { KEYS, withSandbox } from '../helpers/sandbox.js';

const sb = withSandbox();
const run = runner(sb, KEYS.enterprise);

describe('sandbox city and neighbourhood', () => {
  it('paris.jpg is located in Paris (neighbourhood the nearest section), and --city paris finds it', async () => {
    const r = await run(['locate', `${IMG}paris.jpg`, '--keep-metadata', '--json', '--no-store']);
    expect(r.code).toBe(0);
    const body = JSON.parse(r.stdout);
    expect(body.location).toMatchObject({ city: 'Paris', neighborhood: 'Paris 16 Passy', country: 'France' });
    expect(body.location.address).toBe('near Paris 16 Passy, Paris, Île-de-France, France');
    const found = JSON.parse((await run(['analyses', '--city', 'paris', '--json'])).stdout);
    expect(found.data.map((a: { analysis_id: string }) => a.analysis_id)).toContain(body.analysis_id);
    expect((await run(['analyses', '--city', 'ile-de-france', '--json'])).stdout).not.toContain(body.analysis_id);
  });

  it('tokyo.jpg: city Tokyo; sydney.jpg: city Sydney', async () => {
    for (const [img, city] of [['tokyo.jpg', 'Tokyo'], ['sydney.jpg', 'Sydney']] as const) {
      const body = JSON.parse((await run(['locate', `${IMG}${img}`, '--keep-metadata', '--json', '--no-store'])).stdout);
      expect(body.location.city, img).toBe(city);
    }
  });
});
