import fs from 'node:fs';

/**
 * Summarises a V8 .cpuprofile (from `node --cpu-prof`, e.g. a benchmark's server run with BENCH_CPU_PROF=<dir>):
 * where the process's CPU time went, by module (a package of node_modules, a file of src/, node's own code) and by
 * function, as self time (the function itself was running) and inclusive time (it was on the stack).
 *
 *   node bench/cpu-profile-summary.ts <file.cpuprofile> [--skip-seconds N] [--top N] [--match regexp]
 *
 * Times are samples × the sampling interval, so they approximate CPU time rather than wall time.
 * --skip-seconds leaves out the first N seconds (the server's start-up); --match keeps only the samples with a frame
 * whose function or file matches the regular expression (e.g. `checkout`), so the shares are of that work alone.
 */

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

const args = process.argv.slice(2);
const file = args.find((arg, i) => !arg.startsWith('--') && !args[i - 1]?.startsWith('--'));
if (!file) {
  console.error('usage: node bench/cpu-profile-summary.ts <file.cpuprofile> [--skip-seconds N] [--top N] [--match s]');
  process.exit(2);
}
const option = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const skipMicros = Number(option('--skip-seconds') ?? 0) * 1_000_000;
const top = Number(option('--top') ?? 30);
const matchText = option('--match');
const match = matchText ? new RegExp(matchText) : undefined;

const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

/** A package under node_modules, a file of the project, node's own modules, or V8's pseudo-frames. */
function moduleOf(frame: CallFrame): string {
  const url = frame.url;
  if (!url) return `(${frame.functionName || 'native'})`;
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 'node_modules/'.length).split('/');
    return rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : (rest[0] ?? url);
  }
  if (url.startsWith('node:')) return url;
  const src = url.indexOf('/src/');
  if (src >= 0) return url.slice(src + 1);
  return url.replace(/^file:\/\//, '');
}

function functionOf(frame: CallFrame): string {
  const where = frame.url ? `${moduleOf(frame)}:${frame.lineNumber + 1}` : '';
  return `${frame.functionName || '(anonymous)'} ${where}`.trim();
}

const selfByModule = new Map<string, number>();
const selfByFunction = new Map<string, number>();
const inclusiveByModule = new Map<string, number>();
const inclusiveByFunction = new Map<string, number>();
const add = (map: Map<string, number>, key: string, micros: number) => map.set(key, (map.get(key) ?? 0) + micros);

// Each sample counts one sampling interval (the median gap between samples), not the gap before the next one: when
// the machine is busy the process waits for a CPU between samples, and that wait is no CPU time of its own.
const gaps = profile.timeDeltas.filter((gap) => gap > 0).sort((a, b) => a - b);
const interval = gaps[Math.floor(gaps.length / 2)] ?? 1000;
let elapsed = 0;
let total = 0;
let idle = 0;
for (let i = 0; i < profile.samples.length; i++) {
  const micros = interval;
  elapsed += profile.timeDeltas[i] ?? 0;
  if (elapsed < skipMicros) continue;
  const leaf = byId.get(profile.samples[i] ?? -1);
  if (!leaf) continue;
  if (leaf.callFrame.functionName === '(idle)') {
    idle += micros;
    continue;
  }
  const stack: CallFrame[] = [];
  for (let id: number | undefined = leaf.id; id !== undefined; id = parent.get(id)) {
    const node = byId.get(id);
    if (node && node.callFrame.functionName !== '(root)') stack.push(node.callFrame);
  }
  if (match && !stack.some((frame) => match.test(frame.functionName) || match.test(frame.url))) continue;
  total += micros;
  add(selfByModule, moduleOf(leaf.callFrame), micros);
  add(selfByFunction, functionOf(leaf.callFrame), micros);
  // Each module or function once per sample, however often it recurses.
  for (const key of new Set(stack.map(moduleOf))) add(inclusiveByModule, key, micros);
  for (const key of new Set(stack.map(functionOf))) add(inclusiveByFunction, key, micros);
}

function print(title: string, map: Map<string, number>): void {
  console.log(`\n${title}`);
  const rows = [...map].sort((a, b) => b[1] - a[1]).slice(0, top);
  for (const [key, micros] of rows) {
    console.log(
      `${(micros / 1000).toFixed(0).padStart(8)} ms ${((micros / total) * 100).toFixed(1).padStart(5)} %  ${key}`,
    );
  }
}

console.log(
  `${file}: ${(total / 1000).toFixed(0)} ms of CPU in the samples kept (${(idle / 1000).toFixed(0)} ms idle)` +
    (match ? `, samples with a frame matching /${matchText}/` : ''),
);
print('Self time by module', selfByModule);
print('Inclusive time by module', inclusiveByModule);
print('Self time by function', selfByFunction);
print('Inclusive time by function', inclusiveByFunction);
