/**
 * The baseline of bench/image: plain node reads the image whole, encodes it to base64, builds the
 * JSON body and posts it to the sandbox, the simplest correct client (it holds the bytes, the base64
 * string and the body at once). Prints the HTTP status and the response size.
 *
 *   node bench/baseline-post.mjs <image> <base-url> [key]
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';

const [file, base, key = 'orca_sandbox_pro'] = process.argv.slice(2);
if (!file || !base) {
  console.error('usage: node bench/baseline-post.mjs <image> <base-url> [key]');
  process.exit(2);
}
const body = JSON.stringify({ image_b64: readFileSync(file).toString('base64'), depth: 1 });
const req = request(new URL('/api/v1/geolocate', base), {
  method: 'POST',
  headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'idempotency-key': randomUUID() },
});
req.on('response', (res) => {
  let size = 0;
  res.on('data', (c) => (size += c.length));
  res.on('end', () => {
    console.log(`${res.statusCode} ${size} bytes`);
    process.exitCode = res.statusCode === 200 ? 0 : 1;
  });
});
req.on('error', (err) => {
  console.error(err.message);
  process.exitCode = 1;
});
req.end(body);
