import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderHtmlReport } from '../../src/output/export/html-report.js';
import { loadLeafletAssets } from '../../src/output/export/leaflet-assets.js';
import { sniffImageMime, thumbnailDataUrl } from '../../src/output/export/thumbnail.js';
import { FIXTURES } from '../helpers/sandbox.js';
import { countryOutlines } from '../../src/output/export/outlines.js';
import { hostileRecord, parisRecord, sydneyRecord } from '../export/fixtures.js';

const fake = { js: 'window.L = undefined; // </script><!-- \r\n', css: '.x{}\r\n</style>' };
const opts = { leaflet: fake, generatedAt: '2025-05-14T16:32:07.123Z', cliVersion: '0.1.0' };
const inline = (html: string, tag: string) => [...html.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, 'g'))].map((m) => m[1]!);
const hash = (s: string) => `'sha256-${createHash('sha256').update(s).digest('base64')}'`;

describe('HTML report (static checks)', () => {
  it('escapes every hostile server string and keeps the data block free of <', () => {
    const html = renderHtmlReport([{ record: hostileRecord() }], opts);
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('<!-- =cmd');
    expect(html).not.toMatch(/[\u001b\u202e]/);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&amp;]]&gt;&lt;!--');
    const data = /<script type="application\/json" id="geo-data">([\s\S]*?)<\/script>/.exec(html)![1]!;
    expect(data).not.toMatch(/[<>&]/);
    expect(JSON.parse(data).items[0].candidates[0].label).toContain('<script>alert(1)</script>');
  });

  it('pins a strict CSP to the hashes of exactly the inline scripts and styles', () => {
    const html = renderHtmlReport([{ record: parisRecord() }], opts);
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)![1]!.replace(/&#39;/g, "'");
    expect(csp).toMatch(/^default-src 'none'; /);
    expect(csp).toContain('img-src data: https://tile.openstreetmap.org');
    expect(csp).not.toContain('unsafe');
    const scripts = inline(html, 'script');
    const styles = inline(html, 'style');
    expect(scripts).toHaveLength(2);
    expect(styles).toHaveLength(2);
    for (const s of scripts) expect(csp).toContain(hash(s));
    for (const s of styles) expect(csp).toContain(hash(s));
    // Library text that could end its element early, and CRLF the parser would rewrite, are neutralised.
    expect(scripts[0]).toContain('<\\/script><\\!-- \n');
    expect(styles[0]).toBe('.x{}\n<\\/style>');
  });

  it('opens a report of several results with an escaped summary table; img-src allows exactly the two tile hosts', () => {
    const outlines = countryOutlines([{ lat: 48.8584, lng: 2.2945 }])!;
    const html = renderHtmlReport([{ record: parisRecord() }, { record: hostileRecord() }, { record: sydneyRecord() }], { ...opts, outlines });
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)![1]!.replace(/&#39;/g, "'");
    expect(csp.split('; ').filter((d) => d.startsWith('img-src'))).toEqual(['img-src data: https://tile.openstreetmap.org https://server.arcgisonline.com']);
    const summary = /<section class="summary" id="summary">([\s\S]*?)<\/section>/.exec(html)![1]!;
    expect(summary.match(/<tr class="summary-row">/g)).toHaveLength(3);
    expect(summary).toContain('<a href="#result-1">evil&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&amp;]]&gt;&lt;!--');
    expect(summary).not.toMatch(/<script|<!--/);
    expect(html).toContain('<div class="map overview" id="map-overview"');
    expect(html.match(/<h2><span class="no">\d<\/span>/g)).toHaveLength(3);
    // The outlines travel as a JSON data block like the results: nothing in it can end the element.
    const block = /<script type="application\/json" id="geo-outlines">([\s\S]*?)<\/script>/.exec(html)![1]!;
    expect(block).not.toMatch(/[<>&]/);
    expect(JSON.parse(block).labels[0].name).toBe('France');
    // One result: no summary, no numbers.
    const one = renderHtmlReport([{ record: parisRecord() }], opts);
    expect(one).not.toContain('class="summary"');
    expect(one).not.toContain('<span class="no">');
  });

  it('embeds the image as a data URL, and says so when the map or image is unavailable', async () => {
    const bytes = readFileSync(FIXTURES + 'paris.jpg');
    expect(sniffImageMime(bytes)).toBe('image/jpeg');
    // Without sharp the file itself is embedded, without its metadata: the picture bytes are the
    // original's (from SOS on), the EXIF with its GPS is not there.
    const plain = await thumbnailDataUrl(bytes, { useSharp: false });
    const embedded = Buffer.from(plain!.replace(/^data:image\/jpeg;base64,/, ''), 'base64');
    const sos = (b: Buffer) => b.subarray(b.indexOf(Buffer.from([0xff, 0xda])));
    expect(sos(embedded).equals(sos(bytes))).toBe(true);
    expect(embedded.includes('GPS') || embedded.includes('iPhone')).toBe(false);
    expect(bytes.includes('iPhone')).toBe(true);
    expect(await thumbnailDataUrl(Buffer.from('not an image'))).toBeUndefined();
    const html = renderHtmlReport([{ record: parisRecord(), thumbnail: plain! }, { record: parisRecord(), missingImage: 'image not found at <x>' }], { ...opts, leaflet: undefined });
    expect(html).toContain(`<img src="${plain}" alt="analysed image">`);
    expect(html).toContain('image not found at &lt;x&gt;');
    expect(html).toContain('Map unavailable');
    expect(html).not.toMatch(/<script>/);
  });

  it('finds the installed leaflet package (or reports it absent)', async () => {
    const assets = await loadLeafletAssets();
    if (!assets) return console.log('leaflet not installed: the report would have no map');
    expect(assets.version).toMatch(/^1\.\d+\.\d+/);
    expect(assets.js).not.toContain('sourceMappingURL');
    expect(assets.css).toContain('.leaflet-container');
  });
});
