import { execSync } from 'node:child_process';
import fs from 'node:fs';

// `npm start` serves the built SPA; build it the first time so `npm install && npm start` just works.
if (!fs.existsSync('dist/web/index.html')) {
  console.log('No web build yet: building the shop pages once (npm run build)…');
  execSync('npm run build', { stdio: 'inherit' });
}
