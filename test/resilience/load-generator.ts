import autocannon from 'autocannon';

/*
 * A load generator in a process of its own: `node test/resilience/load-generator.ts <url> <connections> <seconds>`.
 * Prints one JSON line at the end: answers by status, the times of the 200 answers, client errors and timeouts.
 *
 * Why a separate process: 2,000 connections keep a load generator's event loop saturated, and a test that measured
 * the server's health answers from that same loop measured its own queue (health looked unanswered for seconds
 * while the server was 20% idle). The test's own process stays free to time the server.
 */

const [url, connections, seconds] = process.argv.slice(2);
if (!url || !connections || !seconds) {
  console.error('usage: load-generator.ts <url> <connections> <seconds>');
  process.exit(2);
}

/** autocannon's callback form (its bundled types only describe the promise form): 'response' events per answer. */
type Cannon = (
  options: { url: string; connections: number; duration: number; timeout: number },
  done: (error: unknown, result: { errors: number; timeouts: number }) => void,
) => { on(event: 'response', listener: (client: unknown, status: number, bytes: number, ms: number) => void): void };

const statuses: Record<string, number> = {};
const served: number[] = [];
const instance = (autocannon as unknown as Cannon)(
  { url, connections: Number(connections), duration: Number(seconds), timeout: 10 },
  (error, result) => {
    if (error) {
      console.error(String(error));
      process.exit(1);
    }
    process.stdout.write(
      `${JSON.stringify({ statuses, served, errors: result.errors, timeouts: result.timeouts })}\n`,
      () => process.exit(0),
    );
  },
);
instance.on('response', (_client, status, _bytes, ms) => {
  statuses[status] = (statuses[status] ?? 0) + 1;
  if (status === 200) served.push(Math.round(ms * 10) / 10);
});
