import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ID_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * The name this server keeps across restarts, so that its next start can take back at once what it held when it
 * died (mail it was sending, imports it was running) instead of waiting for their leases or heartbeats to run out.
 * INSTANCE_ID when set. Else made of a random id written once to DATA_DIR/instance-id, the host's name and PORT: two
 * live processes never share all three (one host cannot listen twice on a port), so instances that share a DATA_DIR
 * (PostgreSQL) are told apart, and one restarted on its port is itself again. When the file cannot be read or
 * written, a random id for this process alone: nothing is taken back early, the leases still end on time.
 */
export function instanceIdentity(config: { INSTANCE_ID?: string | undefined; DATA_DIR: string; PORT: number }): {
  id: string;
  persisted: boolean;
} {
  if (config.INSTANCE_ID) return { id: config.INSTANCE_ID, persisted: true };
  const kept = dataDirId(config.DATA_DIR);
  if (!kept) return { id: crypto.randomUUID(), persisted: false };
  const id = crypto.createHash('sha256').update(`${kept}\n${os.hostname()}\n${config.PORT}`).digest('hex').slice(0, 32);
  return { id, persisted: true };
}

/** DATA_DIR/instance-id, written by the first start (two first starts at once: the second reads the first's). */
function dataDirId(dataDir: string): string | undefined {
  const file = path.join(dataDir, 'instance-id');
  const read = () => {
    const text = fs.readFileSync(file, 'utf8').trim();
    return ID_PATTERN.test(text) ? text : undefined;
  };
  try {
    return read();
  } catch {
    // Not written yet (the first start): written below.
  }
  try {
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const id = crypto.randomUUID();
    fs.writeFileSync(file, `${id}\n`, { mode: 0o600, flag: 'wx' });
    return id;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return undefined;
    try {
      return read();
    } catch {
      return undefined;
    }
  }
}
