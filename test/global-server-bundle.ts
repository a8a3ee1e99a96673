import { ensureServerBundle } from '../scripts/build-server.ts';

/**
 * Tests that spawn the production server run its bundle (ADR 022): build it first when it is missing or older than
 * the server's sources, so a test never runs a server older than the code beside it.
 */
export async function setup(): Promise<void> {
  await ensureServerBundle();
}
