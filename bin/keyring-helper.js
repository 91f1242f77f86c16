// The OS keyring for geo (src/config/keyring.ts starts this file as a child process): macOS
// Keychain, Windows Credential Manager, the Secret Service on Linux, through @napi-rs/keyring.
//
// Why a child process: the binding is synchronous (its async form runs on libuv's thread pool), and
// a Secret Service call can block on D-Bus (a bus that never answers, an unlock prompt nobody
// sees). Neither a worker thread nor the thread pool can be abandoned: Node waits for them before
// it exits. A child can be killed, so every keyring call is bounded (about 3 s) and geo never hangs.
//
// On Linux the entry is pinned to the Secret Service: the binding's default falls back to the
// kernel keyutils keyring, which keeps keys in memory only and loses them at reboot.
//
// Protocol: one JSON request on stdin, {"service", "ops": [{"op": "get"|"set"|"delete"|"probe",
// "account", "secret"?}]}; one JSON answer on stdout, {"results": [{"ok": true, "value"?} |
// {"ok": false, "error"}]} or {"unavailable": why}. Secrets travel on the pipes only, never in argv.
'use strict';

const OPTIONS = { linux: { store: 'secret-service' } };

function answer(obj) {
  process.stdout.write(JSON.stringify(obj));
}

function run(request) {
  let Entry;
  try {
    ({ Entry } = require('@napi-rs/keyring'));
  } catch (err) {
    return answer({ unavailable: `no keyring binding for ${process.platform}-${process.arch} (${err.code || err.message})` });
  }
  const results = [];
  for (const op of request.ops) {
    let entry;
    try {
      entry = new Entry(request.service, op.account, OPTIONS);
    } catch (err) {
      // The store itself is missing (no Secret Service on the bus): nothing else will work either.
      return answer({ unavailable: String(err.message || err) });
    }
    try {
      if (op.op === 'get') results.push({ ok: true, value: entry.getPassword() });
      else if (op.op === 'set') {
        entry.setPassword(op.secret);
        results.push({ ok: true });
      } else if (op.op === 'delete') results.push({ ok: true, value: entry.deleteCredential() });
      else if (op.op === 'probe') {
        entry.getPassword();
        results.push({ ok: true });
      } else results.push({ ok: false, error: `unknown operation ${op.op}` });
    } catch (err) {
      results.push({ ok: false, error: String(err.message || err) });
    }
  }
  answer({ results });
}

let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (c) => (input += c));
process.stdin.on('end', () => {
  let request;
  try {
    request = JSON.parse(input);
  } catch {
    return answer({ unavailable: 'the keyring helper got no request' });
  }
  run(request);
});
