// Preloaded with `node --require` (NODE_OPTIONS) into a spawned geo: appends every module request
// (require, and import() as the bundle turns it into require) to $GEO_TEST_REQUIRES_FILE, one a
// line, so a test can tell whether a package was loaded at all (the HEIC decoder, for one).
'use strict';
const file = process.env.GEO_TEST_REQUIRES_FILE;
if (file) {
  const Module = require('node:module');
  const { appendFileSync } = require('node:fs');
  const load = Module._load;
  Module._load = function (request, ...rest) {
    appendFileSync(file, `${request}\n`);
    return load.call(this, request, ...rest);
  };
}
