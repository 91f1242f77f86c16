// Preloaded with `node --require` (NODE_OPTIONS) into a spawned geo: writes the process's peak RSS
// in KiB (getrusage's ru_maxrss) to $GEO_TEST_RSS_FILE at exit. Works where GNU time is absent.
'use strict';
const file = process.env.GEO_TEST_RSS_FILE;
if (file) process.on('exit', () => require('node:fs').writeFileSync(file, String(process.resourceUsage().maxRSS)));
