/**
 * The pure parts of geo api, table-driven: how -f/-F become a body (nested keys, types), where a
 * path goes, which -H lines are refused, and which retry class a request gets.
 */
import { describe, expect, it } from 'vitest';
import { fieldsToBody, readFields } from '../../src/commands/api/fields.js';
import { parseHeaders, policyFor, resolvePath } from '../../src/commands/api/target.js';

const noStdin = { readStdin: async () => 'STDIN' };

describe('-f and -F', () => {
  it('-f is always a string; -F types true/false/null/numbers and reads @-', async () => {
    const fields = await readFields(['a=1', 'b=true'], ['n=2', 'x=-1.5e3', 't=true', 'f=false', 'z=null', 's=hello', 'in=@-', 'lead=007'], noStdin);
    expect(fieldsToBody(fields)).toEqual({ a: '1', b: 'true', n: 2, x: -1500, t: true, f: false, z: null, s: 'hello', in: 'STDIN', lead: '007' });
  });

  it('keys nest: scope[lat] builds objects, tags[] appends to an array', async () => {
    const fields = await readFields(['scope[name]=Paris', 'tags[]=a', 'tags[]=b'], ['scope[center][lat]=48.85', 'scope[radius_km]=20'], noStdin);
    expect(fieldsToBody(fields)).toEqual({ scope: { name: 'Paris', center: { lat: 48.85 }, radius_km: 20 }, tags: ['a', 'b'] });
  });

  it.each([['noequals'], ['=value'], ['a[]b=1'], ['a[][b]=1']])('refuses the malformed field %s', async (arg) => {
    await expect(readFields([arg], [], noStdin).then(fieldsToBody)).rejects.toThrow(/key=value|malformed|\[\]/);
  });
});

describe('the path', () => {
  const base = 'https://api.example.com';
  it.each([
    ['/api/v1/credits', '/api/v1/credits'],
    ['api/v1/credits', '/api/v1/credits'],
    ['credits', '/api/v1/credits'],
    ['/credits', '/credits'],
    ['/__sandbox/ledger', '/__sandbox/ledger'],
    ['jobs/j_1', '/api/v1/jobs/j_1'],
    ['analyses?limit=5', '/api/v1/analyses?limit=5'],
    ['api/v1/../v1/geolocate', '/api/v1/geolocate'],
    ['https://api.example.com/api/v1/usage?x=1', '/api/v1/usage?x=1'],
  ])('%s -> %s', (input, path) => expect(resolvePath(input, base)).toBe(path));

  it('keeps a base URL\'s path prefix, and refuses to leave it', () => {
    expect(resolvePath('credits', 'https://proxy.example/geo')).toBe('/api/v1/credits');
    expect(() => resolvePath('https://proxy.example/other/api/v1/credits', 'https://proxy.example/geo')).toThrow(/refusing/);
    expect(() => resolvePath('api/../../x', 'https://proxy.example/geo')).toThrow(/leaves the base URL/);
  });

  it.each([
    'https://evil.example/api/v1/credits',
    'http://api.example.com/api/v1/credits', // same host, another scheme: another origin
    'https://user:pw@api.example.com/api/v1/credits',
    '//evil.example/api/v1/credits',
    'ftp://api.example.com/x',
  ])('refuses %s (the key never leaves its origin)', (input) => {
    expect(() => resolvePath(input, base)).toThrow(expect.objectContaining({ hint: expect.stringMatching(/the key never leaves its origin/) }));
  });
});

describe('-H', () => {
  it('lower-cases names, trims values, keeps an Idempotency-Key', () => {
    expect(parseHeaders(['Accept: application/problem+json', 'Idempotency-Key:  k-1 '])).toEqual({ accept: 'application/problem+json', 'idempotency-key': 'k-1' });
  });
  it.each(['Authorization: Bearer x', 'x-api-key: x', 'Proxy-Authorization: x', 'Host: evil', 'Content-Length: 1', 'no colon', 'Bad Name: x', 'X-A: a\rb'])('refuses %s', (line) => {
    expect(() => parseHeaders([line])).toThrow();
  });
});

describe('retry class and key', () => {
  it.each([
    ['POST', '/api/v1/geolocate', 'keyed', true],
    ['POST', '/API/v1/geolocate/', 'keyed', true],
    ['POST', '/api/v1/cases', 'unsafe', true],
    ['GET', '/api/v1/credits', 'idempotent', true],
    ['GET', '/api/v1/docs', 'idempotent', false],
    ['GET', '/api/v1/jobs/123', 'idempotent', true],
    ['DELETE', '/api/v1/cases/1', 'unsafe', true],
  ] as const)('%s %s -> %s, key sent: %s', (method, path, retry, auth) => expect(policyFor(method, path)).toEqual({ retry, auth }));
});
