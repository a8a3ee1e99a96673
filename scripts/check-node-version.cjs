// Preflight of `npm install`, `npm start`, `npm test` and `npm run check` (their pre- scripts). The server runs its
// TypeScript directly on Node (docs/decisions/003), which an older Node cannot do: without this check Node 20 fails
// deep inside start-up with ERR_UNKNOWN_FILE_EXTENSION ".ts". So this file is plain CommonJS in old syntax (no `?.`,
// no `??`, no `node:` prefix): it has to run, and say one clear sentence, on exactly the Node versions we do not support.
'use strict';

// One source of truth for the minimum: package.json's engines field, which .npmrc's engine-strict also enforces.
const range = require('../package.json').engines.node;
const minimum = /^>=\s*(\d+)\.(\d+)(?:\.(\d+))?$/.exec(range);
if (!minimum) {
  // A range this check cannot read must be noticed by whoever changes it, not pass silently.
  console.error(`scripts/check-node-version.cjs reads engines.node only as ">=MAJOR.MINOR[.PATCH]", not "${range}"`);
  process.exit(1);
}

const wanted = [Number(minimum[1]), Number(minimum[2]), Number(minimum[3] || 0)];
const running = process.versions.node.split('.').map(Number);

function atLeast(version, floor) {
  for (let i = 0; i < floor.length; i += 1) {
    if (version[i] !== floor[i]) return version[i] > floor[i];
  }
  return true;
}

if (!atLeast(running, wanted)) {
  const needed = minimum[3] ? wanted.join('.') : `${wanted[0]}.${wanted[1]}`;
  console.error(
    `Redline Parts needs Node.js ${needed} or later (24 LTS recommended); this is Node ${process.versions.node} — ` +
      'install it from https://nodejs.org or with nvm: nvm install 24',
  );
  process.exit(1);
}
