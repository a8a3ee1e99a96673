import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const ID_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * The name this server keeps across restarts, so that its next start can take back at once what it held when it
 * died (mail it was sending, imports it was running) instead of waiting for their leases or heartbeats to run out.
 * INSTANCE_ID when set; else a random id written once to DATA_DIR/instance-id. When the file cannot be read or
 * written, a random id for this process alone: nothing is taken back early, the leases still end on time.
 */
export function instanceIdentity(config: { INSTANCE_ID?: string | undefined; DATA_DIR: string }): {
  id: string;
  persisted: boolean;
} {
  if (config.INSTANCE_ID) return { id: config.INSTANCE_ID, persisted: true };
  const file = path.join(config.DATA_DIR, 'instance-id');
  try {
    const kept = fs.readFileSync(file, 'utf8').trim();
    if (ID_PATTERN.test(kept)) return { id: kept, persisted: true };
  } catch {
    // Not written yet (first start), or unreadable: written below.
  }
  const id = crypto.randomUUID();
  try {
    fs.mkdirSync(config.DATA_DIR, { recursive: true, mode: 0o700 });
    fs.writeFileSync(file, `${id}\n`, { mode: 0o600 });
    return { id, persisted: true };
  } catch {
    return { id, persisted: false };
  }
}
