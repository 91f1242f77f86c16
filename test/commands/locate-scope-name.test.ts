/**
 * `--scope NAME` without `--center` (issue 13, part 6): the centre comes from the offline index,
 * a note on stderr names the place, --center still wins, and a name the index cannot settle is
 * exit 2 with the choices listed and nothing sent.
 */
import { describe, expect, it } from 'vitest';
import { withSandbox } from '../helpers/sandbox.js';
import { IMG, footprint, runner } from './locate-helpers.js';

const sb = withSandbox();
const run = runner(sb);
const PARIS = `${IMG}paris.jpg`;
const scopeOf = (stdout: string) => JSON.parse(stdout.slice(stdout.indexOf('{'), stdout.lastIndexOf('}') + 1)).scope;

describe('locate --scope NAME', () => {
  it('takes the centre of the most prominent match and says which place it is', async () => {
    const r = await run(['locate', PARIS, '--scope', 'Paris', '--radius', '20', '--dry-run']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^--scope Paris: Paris, Île-de-France, FR \(48\.85341, 2\.3488\); \d+ other places of that name/m);
    expect(scopeOf(r.stdout)).toEqual({ name: 'Paris', lat: 48.85341, lng: 2.3488, radius_km: 20 });
  });

  it('a region or country qualifier chooses; --center still overrides the index', async () => {
    const texas = await run(['locate', PARIS, '--scope', 'Paris, Texas', '--dry-run']);
    expect(scopeOf(texas.stdout)).toMatchObject({ name: 'Paris, Texas', lat: 33.66094, lng: -95.55551 });
    expect(texas.stderr).toMatch(/--scope Paris, Texas: Paris, Texas, US \(33\.66094, -95\.55551\)$/m);
    const own = await run(['locate', PARIS, '--scope', 'Paris', '--center', '48.8566,2.3522', '--dry-run']);
    expect(scopeOf(own.stdout)).toMatchObject({ lat: 48.8566, lng: 2.3522 });
    expect(own.stderr).not.toMatch(/--scope Paris:/);
  });

  it('another name for a place: --scope Kiev takes Kyiv\'s centre and says so; --scope "Springfield, IL" Illinois\'s', async () => {
    const kiev = await run(['locate', PARIS, '--scope', 'Kiev', '--dry-run']);
    expect(kiev.code).toBe(0);
    expect(kiev.stderr).toMatch(/^--scope Kiev: Kyiv, Kyiv City, UA \(50\.45466, 30\.5238\)$/m);
    expect(scopeOf(kiev.stdout)).toMatchObject({ name: 'Kiev', lat: 50.45466, lng: 30.5238 });
    const il = await run(['locate', PARIS, '--scope', 'Springfield, IL', '--dry-run']);
    expect(il.stderr).toMatch(/^--scope Springfield, IL: Springfield, Illinois, US \(39\.80172, -89\.64371\)$/m);
  });

  it('the sandbox answers a named scope like any other (a real request)', async () => {
    const r = await run(['locate', PARIS, '--scope', 'Paris', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).scope_consistent).toBe(true);
  });

  it('ambiguous and unknown names exit 2, list the choices, send nothing', async () => {
    const before = footprint(sb);
    const us = await run(['locate', PARIS, '--scope', 'Paris, US']);
    expect([us.code, us.stdout]).toEqual([2, '']);
    expect(us.stderr).toMatch(/--scope Paris, US is ambiguous: \d+ places of that name.*hint: add a country code or region, e\.g\. --scope "Paris, .+, US"; top matches: .*"Paris, Texas, US" \(33\.66094, -95\.55551\)/);
    const none = await run(['locate', PARIS, '--scope', 'Buenos']);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/--scope Buenos: no such place .*hint: did you mean "Buenos Aires, Buenos Aires F\.D\., AR"/);
    expect(none.stderr.trim().split('\n')).toHaveLength(1);
    expect(footprint(sb)).toEqual(before);
  });
});
